# jobcheck-test: select=JC501
"""Timers registered on the event loop the configuration's server gives (through return
annotations, `Optional[...]` and quoted ones included)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import requests

if TYPE_CHECKING:
    from ..confighelper import ConfigHelper


class ProcStats:
    def __init__(self, config: ConfigHelper) -> None:
        self.server = config.get_server()
        self.event_loop = self.server.get_event_loop()
        self.stat_timer = self.event_loop.register_timer(self._handle_stat_update)
        self.prune_timer = config.maybe_server().get_event_loop().register_timer(self._prune)

    def _handle_stat_update(self, eventtime: float) -> float:  # expect: JC501
        requests.post("https://stats.example/proc")
        return eventtime + 1.0

    def _prune(self, eventtime: float) -> float:  # expect: JC501
        requests.delete("https://stats.example/old")
        return eventtime + 300.0

    def start(self) -> None:
        self.stat_timer.start()
        self.prune_timer.start()
