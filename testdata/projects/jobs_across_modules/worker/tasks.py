# jobcheck-test: select=JC201,JC501
# A worker run as a script from its own folder (`huey_consumer tasks.huey`): `config` is the
# sibling module worker/config.py, as Python's sys.path makes it.
import requests
from config import huey


@huey.task(retries=2, retry_delay=30)
def post_metrics(batch):  # expect: JC501
    requests.post("https://metrics.example/batch", json=batch)  # expect: JC201
