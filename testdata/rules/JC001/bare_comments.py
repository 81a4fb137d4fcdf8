# jobcheck-test: select=JC001,JC201
import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,))
def post(order_id):
    # A bare comment suppresses nothing, and says so.
    requests.post("https://x.example/", json={"o": order_id})  # jobcheck: ignore  # expect: JC001, JC201
    requests.post("https://x.example/", json={"o": order_id})  # jobcheck: ignore[JC201]
    requests.post("https://x.example/", json={"o": order_id})  # noqa: JC201
    # jobcheck: ignore[JC201]
    requests.post("https://x.example/", json={"o": order_id})
    requests.post("https://x.example/", json={"o": order_id})  # noqa  # expect: JC201
    requests.post("https://x.example/", json={"o": order_id})  # jobcheck: ignore[JC101]  # expect: JC201


@shared_task(autoretry_for=(Exception,))
def whole_job(order_id):  # jobcheck: ignore[JC201]
    requests.post("https://x.example/", json={"o": order_id})


def documented():
    """Explains suppressions: write `# jobcheck: ignore[JC201]`, never a bare
    # jobcheck: ignore
    (text in a docstring is not a comment, and suppresses nothing)."""
    return "# jobcheck: ignore"
