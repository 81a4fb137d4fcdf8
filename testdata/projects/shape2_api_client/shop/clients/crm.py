# A client built on the standard library: urlopen of a Request carrying a body is a POST.
import json
from urllib.request import Request, urlopen


class CrmClient:
    endpoint = "https://crm.example/api"

    def _call(self, path, payload=None):
        data = json.dumps(payload).encode() if payload is not None else None
        req = Request(f"{self.endpoint}{path}", data=data, headers={"Content-Type": "application/json"})
        with urlopen(req, timeout=10) as resp:
            return json.load(resp)

    def add_note(self, contact_id, text):
        return self._call(f"/contacts/{contact_id}/notes", {"text": text})

    def contact(self, contact_id):
        return self._call(f"/contacts/{contact_id}")
