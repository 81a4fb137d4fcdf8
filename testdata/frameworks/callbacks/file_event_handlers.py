# jobcheck-test: select=JC501
# watchdog: an observer thread calls a handler's `dispatch` for each file-system event, and the
# base `dispatch` calls the `on_*` method for the kind of event.
from watchdog.events import FileSystemEventHandler, PatternMatchingEventHandler
from watchdog.observers import Observer


class Rescan(FileSystemEventHandler):
    def on_created(self, event):  # expect: JC501
        index(event.src_path)

    def on_deleted(self, event):  # expect: JC501
        forget(event.src_path)

    def describe(self, event):  # not called by the observer: no job
        return event.src_path


class Filtered(PatternMatchingEventHandler):
    def dispatch(self, event):  # expect: JC501
        super().dispatch(event)


class NotAHandler:
    def on_created(self, event):  # a class of its own with a method of the same name: no job
        index(event.src_path)


def index(path):
    pass


def forget(path):
    pass


def watch(path):
    observer = Observer()
    observer.schedule(Rescan(), path, recursive=True)
    observer.start()
