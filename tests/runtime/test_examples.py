"""examples/invoices: the harness catches the unsafe job everywhere and passes the safe one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from jobcheck.runtime import SCENARIOS, DbState, EmailSink, Harness, HttpSink

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "invoices"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))

import billing  # noqa: E402
import safe_invoice  # noqa: E402
import unsafe_invoice  # noqa: E402

# The API sink names each effect the way the report should: "2 × charge cus_1".
ROUTES = {
    "POST /v1/charges": ("charge", lambda r: r.json["customer"]),
    "POST /v1/emails": ("email", lambda r: r.json["to"]),
    "POST /v1/notifications": ("notification", lambda r: r.json["channel"]),
}
LEASE_TTL = 0.3


def config(env: Any, lease_url: str | None) -> billing.Config:
    return billing.Config(
        db_path=str(env.path("app.db")),
        api_url=env.http_url,
        smtp_host=env.smtp_host,
        smtp_port=env.smtp_port,
        lease_url=lease_url or f"sqlite:///{env.path('leases.db')}",
        lease_ttl=env.lease_ttl,
        namespace=f"{env.namespace}:",  # scenarios sharing a PostgreSQL/Redis lease store stay apart
    )


def invoice_harness(factory: Any, module: Any, lease_url: str | None = None, **options: Any) -> Harness:
    return factory(
        lambda period, env: module.send_invoices(period, config(env, lease_url)),
        "2024-05",
        setup=lambda env: module.create_schema(str(env.path("app.db"))),
        observe=[EmailSink(), HttpSink(ROUTES), DbState(lambda env: module.snapshot(str(env.path("app.db"))))],
        lease_ttl=LEASE_TTL,
        **options,
    )


def test_unsafe_invoice_is_caught_on_every_scenario(jobcheck_harness: Any) -> None:
    harness = invoice_harness(jobcheck_harness, unsafe_invoice)
    suite = harness.run_all()
    assert suite.failed == list(SCENARIOS)
    lines = {name: report.line() for name, report in suite.reports.items()}
    # Both runs passed the check before either recorded: everything twice.
    assert lines["concurrent"].startswith("can it run twice: no — 2 × charge cus_1 (expected 1)")
    assert "2 emails to ada@example.com (expected 1)" in lines["concurrent"]
    # B ran while A was held before its first charge; A then charged cus_1 again.
    assert lines["overlap"].startswith("can it overlap itself: no — 2 × charge cus_1 (expected 1)")
    # Killed after charging, before recording: the recovery charges again.
    assert lines["kill"].startswith(
        "can it die mid-run and recover: no — killed after effect #1 (charge cus_1), then recovered: 2 × charge cus_1 (expected 1)"
    )
    assert all(not part.passed for part in suite["kill"].parts)  # at every one of the 7 points
    assert len(suite["kill"].parts) == 7
    # The charge went through but its response was lost; the retry charges again.
    assert lines["retry"].startswith(
        "can it retry safely: no — failed after effect #1 (charge cus_1), then retried: 2 × charge cus_1 (expected 1)"
    )
    first_try = suite["retry"].parts[0].runs[0]
    assert first_try.error.startswith("RemoteDisconnected")
    # A completed run followed by a second one: the per-run notification goes out again.
    assert lines["replay"] == "is it idempotent: no — 2 × notification finance (expected 1)"
    # No lease, no fence: the paused runner resumes and charges again.
    assert lines["lease_expiry"].startswith(
        "is a paused runner fenced off when its lease expires: no — 2 × charge cus_1 (expected 1)"
    )
    assert "database end state differs at invoices" in lines["lease_expiry"]


def test_safe_invoice_answers_every_question(jobcheck_harness: Any) -> None:
    harness = invoice_harness(jobcheck_harness, safe_invoice, points="all")
    suite = harness.verify()
    assert suite.passed and list(suite.reports) == list(SCENARIOS)
    assert len(suite["kill"].parts) == 9  # 7 effects and 2 checkpoints, each a kill point
    # Evidence, not just a green light: a runner did the work. (The other normally returns
    # "skipped: ... leased by another runner"; not asserted, since on a machine too loaded to
    # start it within the lease TTL it takes over instead - harmlessly, as the scenario shows.)
    assert "'done'" in [r.result for r in suite["concurrent"].runs]
    # ... the recovery after a kill between charge and mark resent with the same key, absorbed ...
    after_first_charge = suite["kill"].parts[2]
    assert after_first_charge.variant == "killed after effect #1 (charge cus_1), then recovered"
    assert after_first_charge.observed.absorbed[("charge", "cus_1")] == 1
    # ... and the runner paused past its lease was refused by the database.
    paused = next(r for r in suite["lease_expiry"].runs if r.runner == "A")
    assert paused.status == "error" and paused.error.startswith("StaleTokenError")


@pytest.mark.parametrize("store", ["postgres", "redis"])
def test_safe_invoice_with_a_shared_lease_store(jobcheck_harness: Any, request: pytest.FixtureRequest, store: str) -> None:
    url = request.getfixturevalue("postgres_dsn" if store == "postgres" else "redis_url")
    harness = invoice_harness(jobcheck_harness, safe_invoice, lease_url=url)
    suite = harness.verify()
    paused = next(r for r in suite["lease_expiry"].runs if r.runner == "A")
    assert paused.error.startswith("StaleTokenError")
