# jobcheck-test: select=JC501
# A test helper in a tests folder with no `__init__.py` (its module is named `helpers`): a wait,
# whatever its scheduler-like name.
import requests


def check_ready(base):
    return requests.get(base + "/health").ok


def poll(base):
    return schedule_check(check_ready, base, interval=0.5)


def schedule_check(fn, *args, interval=0.1, attempts=50):
    for _ in range(attempts):
        if fn(*args):
            return True
    return False
