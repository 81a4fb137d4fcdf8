"""The SMTP and HTTP sinks, the ledger and report wording, against real clients."""

from __future__ import annotations

import http.client
import json
import smtplib
import sqlite3
import urllib.error
import urllib.request
from collections import Counter
from email.message import EmailMessage
from typing import Any

import pytest

from jobcheck.runtime import EffectLedger, EmailSink, HttpSink, sqlite_state
from jobcheck.runtime.ledger import describe_effect
from jobcheck.runtime.recorders import FAIL, GO
from jobcheck.runtime.report import Observation, RunOutcome, ScenarioReport, compare


class Hub:
    """Stands in for a harness scenario: records into a ledger and answers ``action``."""

    def __init__(self, action: str = GO) -> None:
        self.ledger = EffectLedger()
        self.action = action
        self.calls: list[tuple] = []

    def effect(self, slot: str, kind: str, targets: list[str], detail: dict, key: Any) -> tuple[str, list]:
        self.calls.append((slot, kind, list(targets), detail, key))
        effects, _ = self.ledger.record(kind, targets, slot, detail, key)
        return self.action, effects


@pytest.fixture
def smtp_sink() -> Any:
    sink = EmailSink()
    sink.start(["A", "B"])
    yield sink
    sink.close()


@pytest.fixture
def http_sink() -> Any:
    sink = HttpSink({"POST /v1/charges": ("charge", lambda r: r.json["customer"]), "/hooks/*": ("hook", lambda r: r.path)})
    sink.start(["A", "B"])
    yield sink
    sink.close()


def message(to: str, subject: str, body: str = "hello", message_id: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Billing <billing@example.com>"
    msg["To"] = to
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg


def test_smtp_sink_counts_each_recipient_and_knows_the_slot(smtp_sink: Any) -> None:
    hub = Hub()
    smtp_sink.bind(hub)
    host, port = smtp_sink.endpoint("B")
    assert port != smtp_sink.endpoint("A")[1]
    with smtplib.SMTP(host, port, timeout=5) as smtp:
        smtp.login("user", "secret")  # any credentials are accepted
        smtp.send_message(message("A@Example.com, b@example.com", "first", body=".a line starting with a dot\n.\n"))
        smtp.send_message(message("a@example.com", "second"))  # same connection: the dots did not end DATA early
    assert [(c[0], c[1], c[2], c[3]["subject"]) for c in hub.calls] == [
        ("B", "email", ["a@example.com", "b@example.com"], "first"),
        ("B", "email", ["a@example.com"], "second"),
    ]
    assert hub.calls[0][3]["from"] == "billing@example.com"
    assert hub.ledger.counts() == Counter({("email", "a@example.com"): 2, ("email", "b@example.com"): 1})


def test_smtp_sink_failure_drops_the_connection_after_delivery(smtp_sink: Any) -> None:
    hub = Hub(action=FAIL)
    smtp_sink.bind(hub)
    with pytest.raises(smtplib.SMTPServerDisconnected):
        with smtplib.SMTP(*smtp_sink.endpoint("A"), timeout=5) as smtp:
            smtp.send_message(message("a@example.com", "lost reply"))
    assert hub.ledger.counts()[("email", "a@example.com")] == 1  # it was delivered all the same


def test_smtp_sink_can_dedupe_by_message_id() -> None:
    sink = EmailSink(dedupe_message_id=True)
    sink.start(["A"])
    try:
        hub = Hub()
        sink.bind(hub)
        for _ in range(2):
            with smtplib.SMTP(*sink.endpoint("A"), timeout=5) as smtp:
                smtp.send_message(message("a@example.com", "once", message_id="<inv-1@example.com>"))
        assert hub.ledger.counts()[("email", "a@example.com")] == 1
        assert hub.ledger.absorbed[("email", "a@example.com")] == 1
    finally:
        sink.close()


def post(url: str, payload: Any, headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_http_sink_routes_dedupes_and_ignores_reads(http_sink: Any) -> None:
    hub = Hub()
    http_sink.bind(hub)
    base = http_sink.endpoint("A")
    first = post(f"{base}/v1/charges", {"customer": "cus_1"}, {"Idempotency-Key": "charge:cus_1"})
    again = post(f"{base}/v1/charges", {"customer": "cus_1"}, {"Idempotency-Key": "charge:cus_1"})
    assert first == again == {"ok": True, "id": "charge_1"}  # the stored response, no new effect
    post(f"{base}/v1/charges", {"customer": "cus_1"})  # no key: a second charge
    post(f"{base}/hooks/finance", {"text": "done"})
    post(f"{base}/other?x=1", {})
    with urllib.request.urlopen(f"{base}/v1/charges", timeout=5) as response:  # a read
        assert json.loads(response.read()) == {"ok": True}
    assert hub.ledger.counts() == Counter(
        {("charge", "cus_1"): 2, ("hook", "/hooks/finance"): 1, ("http", "POST /other"): 1}
    )
    assert hub.ledger.absorbed == Counter({("charge", "cus_1"): 1})
    assert hub.calls[0][3] == {"method": "POST", "path": "/v1/charges", "idempotency_key": "charge:cus_1"}


def test_http_sink_reads_chunked_bodies(http_sink: Any) -> None:
    hub = Hub()
    http_sink.bind(hub)
    conn = http.client.HTTPConnection("127.0.0.1", http_sink.port("A"), timeout=5)
    body = iter([b'{"custo', b'mer": "cus_9"}'])
    conn.request("POST", "/v1/charges", body=body, headers={"Content-Type": "application/json"}, encode_chunked=True)
    assert conn.getresponse().status == 200
    conn.close()
    assert hub.ledger.counts() == Counter({("charge", "cus_9"): 1})


def test_http_sink_failure_leaves_the_caller_without_a_response(http_sink: Any) -> None:
    hub = Hub(action=FAIL)
    http_sink.bind(hub)
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError, urllib.error.URLError)):
        post(f"{http_sink.endpoint('A')}/v1/charges", {"customer": "cus_1"})
    assert hub.ledger.counts() == Counter({("charge", "cus_1"): 1})


def test_unbound_sinks_accept_and_record_nothing(http_sink: Any) -> None:
    assert post(f"{http_sink.endpoint('A')}/v1/charges", {"customer": "x"}) == {"ok": True, "id": "charge_0"}


def test_sqlite_state_snapshot(tmp_path: Any) -> None:
    db = sqlite3.connect(tmp_path / "s.db")
    db.execute("CREATE TABLE t (a, b)")
    db.executemany("INSERT INTO t VALUES (?, ?)", [(2, "y"), (1, "x")])
    db.commit()
    state = sqlite_state(lambda env: tmp_path / "s.db", rows="SELECT a, b FROM t ORDER BY a")
    assert state.name == "database"
    assert state.snapshot(None) == {"rows": [(1, "x"), (2, "y")]}


def test_effect_wording() -> None:
    assert describe_effect("email", "a@example.com", 2) == "2 emails to a@example.com"
    assert describe_effect("email", "a@example.com", 1) == "1 email to a@example.com"
    assert describe_effect("http", "POST /v1/charges", 2) == "2 × POST /v1/charges"
    assert describe_effect("charge", "cus_1", 0) == "0 × charge cus_1"
    expected = Observation(Counter({("email", "a@example.com"): 1, ("charge", "cus_1"): 1}), {"db": {"rows": [1]}})
    observed = Observation(Counter({("email", "a@example.com"): 2}), {"db": {"rows": [1, 1]}})
    problems = compare(expected, observed)
    assert problems == [
        "0 × charge cus_1 (expected 1)",
        "2 emails to a@example.com (expected 1)",
        "db end state differs at rows: [1, 1] (expected [1])",
    ]
    report = ScenarioReport("concurrent", False, problems, observed, expected, [RunOutcome("A", "ok")])
    assert report.line() == "can it run twice: no — " + "; ".join(problems)
    assert report.counts() == {("email", "a@example.com"): 2}
    assert str(RunOutcome("A", "killed", point="killed after effect #1 (email to a@example.com)")) == (
        "run A: killed after effect #1 (email to a@example.com)"
    )
