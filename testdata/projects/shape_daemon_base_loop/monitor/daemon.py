# A daemon base class whose main loop runs until interrupted, pausing through a helper of its own,
# and leaves when a reload is asked for; each daemon does its round in `do_loop_turn`. Nothing in
# the code starts the loop: the deployment runs the daemons.
import time

import psutil


class Daemon:
    def __init__(self, name):
        self.name = name
        self.interrupted = False
        self.need_config_reload = False

    def do_loop_turn(self):
        raise NotImplementedError

    def make_a_pause(self, timeout):
        before = time.time()
        if timeout <= 0:
            return 0.0
        time.sleep(timeout)
        return time.time() - before

    def do_main_loop(self):  # expect: JC501
        while not self.interrupted:
            self.do_loop_turn()
            process = psutil.Process()
            print(process.name())  # the process's name, not the `name` the daemon was made with
            self.make_a_pause(1.0)
            if self.need_config_reload and self.name == "arbiter":
                return  # told to reload: the loop does not wait for a result


class Poller:
    """Waits for a result: a loop that returns once its own state holds is no job."""

    def __init__(self, client):
        self.client = client

    def wait_done(self, job_id):
        while True:
            status = self.client.status(job_id)
            if status.done and status.ok:
                return status
            time.sleep(5)
