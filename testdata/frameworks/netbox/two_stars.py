# Two modules imported with `*`: which one a name comes from cannot be told here; nothing is guessed.
# jobcheck-test: select=JC501
import requests
from extras.scripts import *
from myapp.helpers import *


class Export(Script):
    def run(self, data, commit):
        requests.post("https://export.example/runs", json=data)
