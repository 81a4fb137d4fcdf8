"""The SMTP and HTTP sinks, the mail library recorders, the ledger and report wording, against real clients."""

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

from jobcheck.runtime import (
    DjangoMail,
    EffectLedger,
    EmailSink,
    HttpSink,
    PostgresSchema,
    SmtplibMail,
    fenced_transaction,
    install_fencing,
    sqlite_state,
)
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


# ---------------------------------------------------------------------------- library recorders
# Each runs through the real harness: the recorder patches the library in the job's child.


@pytest.fixture
def mail_server() -> Any:
    """A real SMTP server outside the harness (an EmailSink bound to nothing records nothing)."""
    sink = EmailSink()
    sink.start(["A"])
    yield sink.endpoint("A")
    sink.close()


def send_with_smtplib(server: tuple[str, int], message_id: str | None = None) -> Any:
    def job(period: str, env: Any) -> None:
        with smtplib.SMTP(*server, timeout=5) as smtp:
            smtp.send_message(message("Ada <Ada@Example.com>, b@example.com", f"invoice {period}", message_id=message_id))
            smtp.sendmail("billing@example.com", ["c@example.com"], b"Subject: plain\r\n\r\nhello\r\n")

    return job


def test_smtplib_mail_counts_each_recipient_of_each_message(jobcheck_harness: Any, mail_server: Any) -> None:
    harness = jobcheck_harness(send_with_smtplib(mail_server), "2024-05", observe=[SmtplibMail()])
    assert harness.baseline().counts == Counter(
        {("email", "ada@example.com"): 1, ("email", "b@example.com"): 1, ("email", "c@example.com"): 1}
    )
    replay = harness.run("replay")
    assert replay.line().startswith("is it idempotent: no — 2 emails to ada@example.com (expected 1)")
    first = replay.effects[0]
    assert (first.kind, first.target, first.detail["subject"], first.detail["from"]) == (
        "email", "ada@example.com", "invoice 2024-05", "billing@example.com")


def test_smtplib_mail_failure_is_a_lost_reply_after_delivery(jobcheck_harness: Any, mail_server: Any) -> None:
    harness = jobcheck_harness(send_with_smtplib(mail_server), "2024-05", observe=[SmtplibMail()], points="first")
    retry = harness.run("retry")
    first_try = retry.parts[0].runs[0]
    assert first_try.error.startswith("SMTPServerDisconnected")
    # The message reached both its recipients before the reply was lost; the retry sends again.
    assert retry.parts[0].count("email", "ada@example.com") == 2
    assert retry.parts[0].count("email", "b@example.com") == 2


def test_smtplib_mail_dedupes_a_repeated_message_id_when_asked(jobcheck_harness: Any, mail_server: Any) -> None:
    job = send_with_smtplib(mail_server, message_id="<invoice-2024-05@example.com>")
    harness = jobcheck_harness(job, "2024-05", observe=[SmtplibMail(dedupe_message_id=True)])
    replay = harness.run("replay")
    assert replay.count("email", "ada@example.com") == 1
    assert replay.observed.absorbed[("email", "ada@example.com")] == 1
    assert replay.count("email", "b@example.com") == 1  # the key covers every recipient of the message
    assert replay.observed.absorbed[("email", "b@example.com")] == 1
    assert replay.count("email", "c@example.com") == 2  # no Message-ID: nothing to dedupe on


def test_a_kill_after_a_message_finds_every_recipient_recorded(jobcheck_harness: Any, mail_server: Any) -> None:
    harness = jobcheck_harness(send_with_smtplib(mail_server), "2024-05", observe=[SmtplibMail()], points="first")
    killed = harness.run("kill").parts[0]
    assert killed.runs[0].status == "killed"
    # One message to two recipients is one event: the run is never stopped between them.
    assert sorted(e.target for e in killed.effects if e.runner == "A") == ["ada@example.com", "b@example.com"]


def test_smtplib_mail_leaves_the_harness_sink_to_count_its_own_mail(jobcheck_harness: Any) -> None:
    def job(period: str, env: Any) -> None:
        with smtplib.SMTP(env.smtp_host, env.smtp_port, timeout=5) as smtp:
            smtp.send_message(message("a@example.com", period))

    harness = jobcheck_harness(job, "2024-05", observe=[EmailSink(), SmtplibMail()])
    assert harness.baseline().counts == Counter({("email", "a@example.com"): 1})


def django_job(backend: str, **settings: Any) -> Any:
    def job(period: str, env: Any) -> int:
        from django.conf import settings as django_settings
        from django.core import mail

        django_settings.configure(EMAIL_BACKEND=backend, DEFAULT_FROM_EMAIL="billing@example.com", **settings)
        mail.send_mail(f"invoice {period}", "amount due", None, ["Ada@Example.com", "b@example.com"])
        mail.EmailMessage("copy", "for the books", to=["books@example.com"], cc=["cfo@example.com"]).send()
        return len(getattr(mail, "outbox", []))

    return job


def test_django_mail_counts_messages_sent_through_any_backend(jobcheck_harness: Any) -> None:
    harness = jobcheck_harness(django_job("django.core.mail.backends.locmem.EmailBackend"), "2024-05", observe=[DjangoMail()])
    assert harness.baseline().counts == Counter({
        ("email", "ada@example.com"): 1, ("email", "b@example.com"): 1,
        ("email", "books@example.com"): 1, ("email", "cfo@example.com"): 1,
    })
    replay = harness.run("replay")
    assert replay.line().startswith("is it idempotent: no — 2 emails to ada@example.com (expected 1)")
    assert [run.result for run in replay.runs] == ["2", "2"]  # Django's test outbox still filled
    kill = harness.run("kill")  # killed after the first message went out: the recovery resends it
    assert kill.parts[0].variant == "killed after effect #1 (email to ada@example.com, b@example.com), then recovered"
    assert kill.parts[0].count("email", "ada@example.com") == 2


def test_django_smtp_backend_observed_by_both_recorders_counts_once(jobcheck_harness: Any, mail_server: Any) -> None:
    host, port = mail_server
    job = django_job("django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST=host, EMAIL_PORT=port)
    harness = jobcheck_harness(job, "2024-05", observe=[DjangoMail(), SmtplibMail()])
    assert harness.baseline().counts[("email", "ada@example.com")] == 1
    assert [e.kind for e in harness.run("replay").effects] == ["email"] * 8


def test_django_mail_leaves_the_harness_sink_to_count_its_own_mail_by_any_name(jobcheck_harness: Any) -> None:
    def job(period: str, env: Any) -> None:
        from django.conf import settings
        from django.core import mail

        # "localhost", not the sink's 127.0.0.1: still the sink, which records the mail itself.
        settings.configure(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                           EMAIL_HOST="localhost", EMAIL_PORT=env.smtp_port)
        mail.send_mail(f"invoice {period}", "amount due", "billing@example.com", ["a@example.com"])

    harness = jobcheck_harness(job, "2024-05", observe=[EmailSink(), DjangoMail()])
    assert harness.baseline().counts == Counter({("email", "a@example.com"): 1})


# ---------------------------------------------------------------------------- PostgreSQL recipe


def notify_job(db: Any, *, keyed: bool) -> Any:
    """Notify everyone not yet notified; ``keyed`` makes the row's key the work (safe)."""

    def job(period: str, env: Any) -> None:
        import psycopg

        with psycopg.connect(db.dsn(env), autocommit=True) as conn:
            conflict = " ON CONFLICT DO NOTHING" if keyed else ""
            # The fencing function install_fencing made in this scenario's schema.
            with fenced_transaction(conn, f"notify:{period}", 1):
                for who in ("ada", "grace"):
                    conn.execute(f"INSERT INTO notifications (who, period) VALUES (%s, %s){conflict}", (who, period))

    return job


def schemas(pg_conn: Any, names: list[str]) -> list[str]:
    rows = pg_conn.execute("SELECT schema_name FROM information_schema.schemata WHERE schema_name = ANY(%s)", (names,))
    return [name for (name,) in rows]


def test_postgres_schema_gives_each_scenario_its_own_tables(jobcheck_harness: Any, postgres_dsn: str, pg_conn: Any) -> None:
    seen: list[str] = []

    def remember(conn: Any) -> None:
        seen.append(conn.execute("SELECT current_schema()").fetchone()[0])

    def make(keyed: bool) -> Any:
        unique = ", PRIMARY KEY (who, period)" if keyed else ""
        db = PostgresSchema(postgres_dsn, f"CREATE TABLE notifications (who text, period text{unique})", install_fencing,
                            remember, notifications="SELECT who, period FROM notifications ORDER BY who, period",
                            fences="SELECT resource, token FROM jobcheck_fences")
        return jobcheck_harness(notify_job(db, keyed=keyed), "2024-05", observe=[db]), db

    unsafe, _ = make(keyed=False)
    replay = unsafe.run("replay")
    assert replay.verdict == "no"
    assert replay.observed.state["database"]["notifications"] == [("ada", "2024-05")] * 2 + [("grace", "2024-05")] * 2
    safe, _ = make(keyed=True)
    assert safe.verify(["replay", "concurrent"]).passed
    # One fresh schema per scenario (baseline and replay of each harness, and concurrent), on the server until closed.
    assert len(set(seen)) == len(seen) == 5 and all(name.startswith("jc") for name in seen)
    assert sorted(schemas(pg_conn, seen)) == sorted(seen)
    assert replay.observed.state["database"]["fences"] == [("notify:2024-05", 1)]  # the scenario's own fence table
    unsafe.close()
    safe.close()
    assert schemas(pg_conn, seen) == []


def test_postgres_schema_dsn_keeps_the_callers_options(postgres_dsn: str) -> None:
    env = type("Env", (), {"namespace": "jcabc"})()
    dsn = PostgresSchema(f"{postgres_dsn}?options=-c%20statement_timeout%3D5000").dsn(env)
    assert "statement_timeout=5000" in dsn and "search_path=jcabc" in dsn
