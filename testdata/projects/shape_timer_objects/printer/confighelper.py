# jobcheck-test: select=JC501
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .server import Server


class ConfigHelper:
    def __init__(self, server: Server) -> None:
        self.server = server

    def get_server(self) -> "Server":
        return self.server

    def maybe_server(self) -> Optional[Server]:
        return self.server
