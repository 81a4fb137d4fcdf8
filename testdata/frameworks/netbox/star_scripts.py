# NetBox's own script header imports everything from `extras.scripts`: `Script` is its class. A
# name written in lower case or a builtin's stays what it is.
# jobcheck-test: select=JC501
import requests
from extras.scripts import *


class Audit(Script):  # expect: JC501
    class Meta:
        name = "Audit"

    def run(self, data, commit):
        requests.post("https://audit.example/runs", json=data)


class Helper(Exception):
    """A builtin base: no script."""

    def run(self, data):
        pass
