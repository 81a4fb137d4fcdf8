"""A progress display on stderr for long runs on a terminal.

It appears only once summarising has taken longer than `delay` seconds, so the everyday run on a
few files (and pre-commit) never shows it or imports rich for it, and it is transient: nothing is
left on the terminal once the report is printed.
"""

from __future__ import annotations

import time


class Progress:
    def __init__(self, stream, delay: float = 0.5) -> None:
        self.stream = stream
        self.delay = delay
        self._display = None
        self._task = None
        self._since = time.monotonic()  # the run starts when the display is made

    def summarize(self, planned: list) -> list:
        """A summarizer for `api.check_paths`: summarises one file at a time, counting."""
        from ..analysis.source import summarize_one

        started = time.monotonic()
        out = []
        for done, item in enumerate(planned, 1):
            out.append(summarize_one(item))
            if self._display is None:
                if time.monotonic() - started > self.delay and done < len(planned):
                    self._start(len(planned), done)
            else:
                self._display.update(self._task, completed=done)
        if self._display is not None:
            # Linking the project and running the checks come next: say so while they run.
            self._display.update(self._task, completed=len(planned), description="Checking jobs")
        return out

    def update(self, done: int, total: int) -> None:
        """Count `done` of `total` files summarised, for summarisers that do the work elsewhere
        (the cache and the process pool call this as results arrive)."""
        if self._display is None:
            if time.monotonic() - self._since > self.delay and done < total:
                self._start(total, done)
        else:
            self._display.update(self._task, completed=done)
        if done == total and self._display is not None:
            self._display.update(self._task, completed=total, description="Checking jobs")

    def _start(self, total: int, done: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.progress import Progress as RichProgress

        self._display = RichProgress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=Console(file=self.stream), transient=True,
        )
        self._display.start()
        self._task = self._display.add_task("Reading files", total=total, completed=done)

    def close(self) -> None:
        if self._display is not None:
            self._display.stop()
            self._display = None
