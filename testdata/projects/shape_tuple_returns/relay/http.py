import requests


def make_session(retries=3):
    """A configured session and the settings it was made with."""
    session = requests.Session()
    session.headers["User-Agent"] = "relay"
    return {"retries": retries}, session


class Gateway:
    def __init__(self, base):
        self.base = base
        _, self.session = self._setup()
        self.settings, _ = self._setup()

    def _setup(self):
        return {"timeout": 10}, self._session()

    def _session(self):
        return requests.Session()

    def deliver(self, path, body):
        return self.session.post(self.base + path, json=body)

    def describe(self, path):
        return self.session.get(self.base + path)

    def tune(self):
        return self.settings.update({"timeout": 5})  # a dict: nothing outside changes
