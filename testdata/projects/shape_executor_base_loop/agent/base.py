"""A base class of the application's that starts a thread on an entry of its own, which enters a
loop calling `self.tick()` until told to stop; each subclass does its round, and its wait, in
`tick`. The loop runs until stopped (`while self.should_keep_looping():`), waiting in the
subclasses' rounds, so each subclass the application uses is a periodic job."""
import threading


class BackgroundExecutor:
    def __init__(self):
        self._stopped = threading.Event()
        self._thread = None

    def should_keep_looping(self):
        return not self._stopped.is_set()

    def start(self):
        self._thread = threading.Thread(target=self._entry, daemon=True)
        self._thread.start()

    def stop(self):
        self._stopped.set()

    def _entry(self):
        self.thread_name = threading.current_thread().name
        self.loop()

    def loop(self):  # expect: JC501
        while self.should_keep_looping():
            self.tick()

    def tick(self):
        raise NotImplementedError
