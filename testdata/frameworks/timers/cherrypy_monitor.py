# jobcheck-test: select=JC501
# CherryPy's engine plugins that call a function again and again: `Monitor(bus, callback,
# frequency)` and `BackgroundTask(interval, function)`, made directly or by a subclass handing its
# own method to the plugin's constructor. A plugin built on another base, a subclass's constructor
# passing something that is not a callback, and one whose `super().__init__` reaches a constructor
# of the application's own (with parameters of its own), make no job.
import subprocess

import cherrypy
from cherrypy.process.plugins import BackgroundTask, Monitor, SimplePlugin


class DirectoryCache(Monitor):
    def __init__(self, bus, frequency=60):
        self.paths = {}
        super().__init__(bus, self.refresh, frequency, "dir-cache")

    def refresh(self):  # expect: JC501
        for path in list(self.paths):
            self.paths[path] = subprocess.check_output(["ls", path])


class Sweeper(BackgroundTask):
    def __init__(self):
        BackgroundTask.__init__(self, 300, self.sweep)

    def sweep(self):  # expect: JC501
        subprocess.run(["find", "/var/spool/app", "-mtime", "+7", "-delete"], check=True)


class PeriodicPlugin(Monitor):
    def __init__(self, bus, on_error, frequency=60):
        self.on_error = on_error
        super().__init__(bus, self.tick, frequency)

    def tick(self):  # expect: JC501
        subprocess.run(["sync"], check=True)


class AlertingPlugin(PeriodicPlugin):
    """Its `super().__init__` reaches PeriodicPlugin's constructor: `page_oncall` is the error
    callback there, not the timer's."""

    def __init__(self, bus):
        super().__init__(bus, self.page_oncall, frequency=30)

    def page_oncall(self, exc):
        subprocess.run(["pager", str(exc)], check=True)


class LoggingMixin:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


class CacheRefresher(LoggingMixin, Monitor):
    """A cooperative mixin's constructor hands everything on: the timer's takes the callback."""

    def __init__(self, bus):
        super().__init__(bus, self.refresh, 120)

    def refresh(self):  # expect: JC501
        subprocess.run(["refresh-cache"], check=True)


class Restartable(Monitor):
    """`super().__init__` in a method that is no constructor: not read (and no failure)."""

    def __init__(self, bus):
        self.restart(bus)

    def restart(self, bus):
        super().__init__(bus, self.check, 30)

    def check(self):
        subprocess.run(["check"], check=True)


def setup_plain(bus, plugin):
    Monitor.__init__(plugin, bus, purge_sessions, 60)


class Announcer(SimplePlugin):
    def __init__(self, bus):
        super().__init__(bus)
        self.announce = self.hello

    def hello(self):
        subprocess.run(["logger", "started"], check=True)


def purge_sessions():  # expect: JC501
    subprocess.run(["rm", "-rf", "/var/lib/app/sessions/old"], check=True)


def rotate_logs():  # expect: JC501
    subprocess.run(["logrotate", "/etc/app/logrotate.conf"], check=True)


def run_once():
    subprocess.run(["true"], check=True)


def setup(engine):
    Monitor(engine, purge_sessions, frequency=600).subscribe()
    BackgroundTask(interval=3600, function=rotate_logs).start()
    DirectoryCache(engine).subscribe()
    Sweeper().start()
    AlertingPlugin(engine).subscribe()
    CacheRefresher(engine).subscribe()
    Announcer(engine).subscribe()
    engine.subscribe("start", run_once)
    cherrypy.engine.start()
