# jobcheck-test: select=JC501
"""Programs of the application that its code starts as processes: a worker module run with
`-m` (its argument list a module constant handed to Popen later), a Django command run through
manage.py, a script run by its path. Each runs in a process of its own: work started in the
background, listed so (no entry point, no JC501). A list running another package's module
(`pip`) starts nothing of the application's."""
import subprocess
import sys

WORKER_COMMAND = (sys.executable, "-P", "-m", "app.worker")


class WorkerRun:
    def __init__(self, op, command=WORKER_COMMAND):
        self.command = [*command, op]

    def start(self):
        return subprocess.Popen(self.command, stdin=subprocess.PIPE)


def sync_now():
    return subprocess.run([sys.executable, "manage.py", "sync_mailbox"], capture_output=True)


def rebuild():
    subprocess.check_call(["python", "tools/rebuild_index.py", "--all"])


def upgrade_pip():
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-U", "pip"])
