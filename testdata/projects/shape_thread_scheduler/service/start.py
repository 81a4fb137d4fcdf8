# jobcheck-test: select=JC501
import datetime

from service import actions, queues
from service.runners import scheduler  # a folder with no __init__.py: a namespace package of service

search_queue = queues.SearchQueue()
registry = queues.Registry()


def initialize():
    updater = scheduler.Scheduler(actions.ShowUpdater(), cycle=datetime.timedelta(hours=1), name="UPDATER")
    queue_runner = scheduler.Scheduler(search_queue, cycle=datetime.timedelta(seconds=5))
    trakt = scheduler.DelayedScheduler(actions.TraktChecker(), cycle=datetime.timedelta(hours=1))
    watchdog = scheduler.Watchdog(actions.Healthcheck())
    for thread in (updater, queue_runner, trakt, watchdog):
        thread.start()


def search(show):
    item = queues.SearchItem(show)
    search_queue.add_item(item)


def notify(name):
    queues.MailQueue().add_item(name)


def remember(name):
    registry.add_item(queues.NeverQueued())


def run_tasks(names, tasks=queues.TaskQueue()):
    for name in names:
        tasks.put(queues.Task(name))
