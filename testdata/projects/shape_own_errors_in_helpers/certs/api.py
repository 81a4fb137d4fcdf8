"""The application's API client and its errors (see tasks.py)."""
import requests


class ApiError(Exception):
    pass


class ServerError(ApiError):
    pass


class RateLimited(ServerError):
    pass


class InvalidPayload(ApiError):
    pass


class CertificatesClient:
    def __init__(self, url):
        self.url = url
        self.session = requests.Session()

    def _request(self, method, **kwargs):
        try:
            response = self.session.request(method, self.url, timeout=10, **kwargs)
        except requests.RequestException as exc:
            raise ApiError(f"could not reach {self.url}") from exc
        if response.status_code >= 500:
            raise ServerError(response.text)
        return response.json()

    def issue(self, email):
        return self._request("POST", json={"email": email})

    def revoke(self, uid):
        response = requests.delete(f"{self.url}/{uid}", timeout=10)
        if response.status_code == 429:
            raise RateLimited(uid)
        return response

    def register(self, payload):
        if "email" not in payload:
            raise ServerError("the payload has no email")
        return requests.post(self.url, json=payload, timeout=10)
