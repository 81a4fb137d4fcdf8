# jobcheck-test: select=JC501
# Qt: a timer's `timeout` signal runs its slot each time the timer times out (periodic), unless the
# timer is single-shot; `QTimer.singleShot(ms, f)` runs `f` once, later (started in the
# background); a `QThread` subclass the application starts runs its `run` in a thread of its own.
import requests
from qtpy.QtCore import QThread, QTimer


class StatusWidget:
    def __init__(self):
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(2000)
        self.once = QTimer(self)
        self.once.setSingleShot(True)
        self.once.timeout.connect(self.hide_tooltip)
        QTimer.singleShot(500, self.load_remote)

    def refresh(self):  # expect: JC501
        requests.get("https://status.example/health")

    def hide_tooltip(self):
        print("once, when the single-shot timer fires")

    def load_remote(self):  # started once, later: listed in the background, not a job
        requests.get("https://status.example/remote")

    def on_click(self):
        print("a button's slot: no job")


class IndexWorker(QThread):
    def run(self):  # started once: listed in the background, not a job
        requests.post("https://index.example/rebuild")


class Indexer:
    def start(self):
        self.worker = IndexWorker()
        self.worker.start()


class Autosave:
    def __init__(self):
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.do_autosave)

    def start_timer(self):
        self.timer.start(60000)

    def do_autosave(self):  # expect: JC501
        # A single-shot timer its slot starts again: a period.
        requests.put("https://files.example/autosave")
        self.start_timer()


class UpdateWorker:
    def check(self):  # started once in the Qt thread it was moved to
        requests.get("https://updates.example/latest")


class Updates:
    def begin(self):
        self.thread = QThread()
        self.worker = UpdateWorker()
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.check)
        self.thread.start()


class DebouncedView:
    def __init__(self):
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)


class SearchView(DebouncedView):
    def __init__(self):
        super().__init__()
        self.debounce.timeout.connect(self.search)  # single-shot, set by the base: a debounce

    def search(self):
        requests.get("https://search.example/q")


class Splash:
    def __init__(self):
        self.splash_timer = QTimer(self)
        self.splash_timer.timeout.connect(self.hide_splash)
        self.splash_timer.start(3000)
        self.debounce = QTimer(self, singleShot=True, interval=300)
        self.debounce.timeout.connect(self.search)
        self.ticker = QTimer(self, timeout=self.tick)  # the slot given where the timer is made
        self.ticker.start(1000)
        QTimer.singleShot(100, self, self.with_context)  # (msec, context, functor): the slot is last

    def hide_splash(self):  # stops its own timer: once
        self.splash_timer.stop()
        requests.get("https://status.example/splash")

    def search(self):
        requests.get("https://search.example/q")

    def tick(self):  # expect: JC501
        requests.get("https://status.example/tick")

    def with_context(self):  # started once, later
        requests.get("https://status.example/context")


class Fetch(QThread):
    def run(self):  # started once: its `run` is the work
        requests.get("https://fetch.example/")


class PollThread(QThread):  # expect: JC501
    def run(self):
        while not self.isInterruptionRequested():  # a Qt thread's loop until told to stop
            requests.get("https://poll.example/")
            self.msleep(500)


class Window:
    def start(self):
        self.fetch = Fetch()
        self.fetch.started.connect(self.show_spinner)  # a slot hearing the thread start: no work of it
        self.fetch.start()
        self.poller = PollThread()
        self.poller.start()

    def show_spinner(self):
        print("spinning")


class Console:
    """Timers that only update the interface run on the GUI thread: no jobs."""

    def __init__(self):
        self.flush_timer = QTimer(self)
        self.flush_timer.timeout.connect(self.flush_text)
        self.flush_timer.start(100)
        QTimer.singleShot(100, self.restore_cursor)

    def flush_text(self):
        self.view.insertPlainText(self.pending)
        self.pending = ""

    def restore_cursor(self):
        from qtpy.QtWidgets import QApplication

        QApplication.restoreOverrideCursor()
