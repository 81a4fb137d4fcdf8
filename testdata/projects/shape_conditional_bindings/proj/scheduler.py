# jobcheck-test: select=JC501
# The scheduler is a module global that a start-up function creates through `global`; functions
# defined before and after it use that object.
from apscheduler.schedulers.background import BackgroundScheduler

scheduler = None


def schedule_jobs():
    scheduler.add_job(refresh_feeds, "interval", minutes=30, id="feeds")


def start():
    global scheduler
    scheduler = BackgroundScheduler()
    scheduler.start()
    scheduler.add_job(clean_cache, "cron", hour=4)


def stop():
    global scheduler
    scheduler.shutdown()
    scheduler = None  # stopped: the name is still the scheduler everywhere else


def refresh_feeds():  # expect: JC501
    print("refresh")


def clean_cache():  # expect: JC501
    print("clean")
