# jobcheck-test: select=JC501
# Repeating timers of application frameworks: kivy's Clock, twisted's
# TimerService, Home Assistant's time tracking, errbot's pollers.
import requests
from errbot import BotPlugin
from gi.repository import GLib
from homeassistant.helpers.event import async_track_time_interval
from kivy.clock import Clock
from twisted.application import internet


class FeedPlugin(BotPlugin):
    def activate(self):
        super().activate()
        self.start_poller(300, self.check_feeds)

    def check_feeds(self):  # expect: JC501
        requests.post("https://chat.example/new-items")


class Dashboard:
    def on_start(self):
        Clock.schedule_interval(self.refresh, 30)
        GLib.timeout_add_seconds(60, self.sync)
        Clock.schedule_once(self.greet, 1)  # once

    def refresh(self, dt):  # expect: JC501
        requests.post("https://metrics.example/refresh")

    def sync(self):
        """GLib repeats a timeout only while its callback returns True: not read as periodic."""
        requests.post("https://sync.example/push")
        return True

    def greet(self, dt):
        requests.post("https://chat.example/hello")


async def async_setup_entry(hass, entry):
    async def refresh_prices(now):  # expect: JC501
        requests.post("https://prices.example/refresh")

    entry.async_on_unload(async_track_time_interval(hass, refresh_prices, 300))


def flush():  # expect: JC501
    requests.post("https://metrics.example/flush")


service = internet.TimerService(60, flush)
