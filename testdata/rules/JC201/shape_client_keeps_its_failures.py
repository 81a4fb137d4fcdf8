# A client that keeps every failure of its POST (it tries again by recursion, then logs and
# returns False): the task's `autoretry_for=(RequestException,)` never fires once the POST ran,
# even through a wrapper that raises again what it catches. The client's own retry is reported.
# jobcheck-test: select=JC201
import logging

import requests
from celery import shared_task

logger = logging.getLogger(__name__)


class PixelClient:
    def send(self, event, attempt=0):
        try:
            response = requests.post("https://graph.example/events", json=event, timeout=10)  # expect: JC201
            return response.ok
        except requests.ConnectionError:
            if attempt < 3:
                return self.send(event, attempt + 1)
            return False
        except Exception:
            logger.error("pixel event not sent")
            return False


def send_event(event):
    try:
        return PixelClient().send(event)
    except requests.RequestException:
        logger.warning("network error, retrying")
        raise


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def track_purchase(order_id):
    return send_event({"event_name": "Purchase", "order": order_id})
