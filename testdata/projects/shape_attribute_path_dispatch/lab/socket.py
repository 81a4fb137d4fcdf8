from lab.components.jobs import JobSocket
from lab.components.stats import StatsSocket


class RootSocket:
    def __init__(self):
        self.jobs = JobSocket(self)
        self.stats = StatsSocket(self)
