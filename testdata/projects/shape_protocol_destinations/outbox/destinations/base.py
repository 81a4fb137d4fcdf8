from typing import Protocol


class Destination(Protocol):
    """Where a message goes: any class with these methods, whatever it derives from."""

    def deliver(self, envelope: dict) -> None: ...

    def close(self) -> None: ...
