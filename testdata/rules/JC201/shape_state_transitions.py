# A POST that moves one addressed resource to a state (revoke a certificate, approve a
# submission): a retry finds it already there, so the far end refuses or ignores the repeat.
# POSTs that create something (a refund, a message) or name no resource stay effects.
import requests
import tenacity
from celery import shared_task


class IssuerClient:
    def __init__(self, base_url):
        self.base_url = base_url
        self.session = requests.Session()

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(1))
    def revoke(self, certificate):
        url = f"{self.base_url}/certificates/{certificate.external_id}/revocations"
        return self.session.post(url, json={"reason": "superseded"})

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(1))
    def approve(self, submission_id):
        return self._req("POST", f"/submissions/{submission_id}/transition/", json={"action": "APPROVE"})

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(1))
    def cancel_order(self, order_id):
        return self.session.post(f"{self.base_url}/orders/{order_id}/cancel")

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(1))
    def refund(self, charge_id, amount):
        return self.session.post(f"{self.base_url}/charges/{charge_id}/refunds", json={"amount": amount})  # expect: JC201

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(1))
    def comment(self, ticket_id, text):
        return self._req("POST", f"/tickets/{ticket_id}/comments", json={"text": text})  # expect: JC201

    @tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(1))
    def revoke_all(self):
        # Only the base URL is spliced in: nothing says which resource moves.
        return self.session.post(f"{self.base_url}/revoke")  # expect: JC201

    def _req(self, method, endpoint, **kw):
        url = f"{self.base_url}{endpoint}"
        return requests.request(method, url, timeout=10, **kw)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def close_ticket(ticket_id):
    requests.post(f"https://desk.example/api/tickets/{ticket_id}/close")


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def notify_ticket(ticket_id):
    requests.post(f"https://desk.example/api/tickets/{ticket_id}/notify")  # expect: JC201
