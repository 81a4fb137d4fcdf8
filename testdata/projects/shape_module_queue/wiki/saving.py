# jobcheck-test: select=JC501
# A module-level queue of callables: `defer` puts what it is given there with its arguments, and
# the saver thread takes each and calls it. What the application defers is a job, run later in
# that thread; so is a function put there directly. A queue whose items are only read is no queue
# of jobs.
import queue
import threading

import requests

pending = queue.Queue()
results = queue.Queue()


def defer(fn, *args, **kwargs):
    pending.put((fn, args, kwargs))


def saver():
    while True:
        fn, args, kwargs = pending.get()
        if fn is None:
            break
        fn(*args, **kwargs)


def reporter():
    while True:
        kind, value = results.get()
        print(kind, value)


threading.Thread(target=saver, daemon=True).start()
threading.Thread(target=reporter, daemon=True).start()


def save_page(title, text):  # expect: JC501
    requests.post("https://wiki.example/api/edit", data={"title": title, "text": text})


def rebuild_index():  # expect: JC501
    requests.post("https://wiki.example/api/reindex")


def count_words(text):
    requests.post("https://stats.example/words", data={"text": text})


def edit(title, text):
    defer(save_page, title, text)
    pending.put((rebuild_index, (), {}))
    results.put((count_words, text))  # read, never called: no job
