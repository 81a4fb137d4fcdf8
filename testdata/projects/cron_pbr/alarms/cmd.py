# jobcheck-test: select=JC501
# pbr's setup.cfg declares console scripts under `[entry_points]` (not `[options.entry_points]`):
# the crontab line in the README runs `expirer`; `api` is not scheduled.
import requests


def expirer():  # expect: JC501
    requests.delete("https://alarms.example/history", params={"older_than": "30d"})


def api():
    print("serve the API")
