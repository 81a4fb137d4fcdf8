"""The examples: the harness catches the unsafe invoice job everywhere and passes the safe one,
one pytest item per scenario (``test_safe_invoice[kill]``); the shop's receipt mail through
Django is counted by the DjangoMail recorder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from jobcheck.runtime import (
    DbState,
    DjangoMail,
    EmailSink,
    FiveQuestionsError,
    HttpSink,
    ScenarioReport,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
for app in ("invoices", "shop"):
    if str(EXAMPLES / app) not in sys.path:
        sys.path.insert(0, str(EXAMPLES / app))

import billing
import safe_invoice
import unsafe_invoice

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


def check_invoices(jobcheck_scenario: Any, module: Any, lease_url: str | None = None, **options: Any) -> ScenarioReport:
    return jobcheck_scenario(
        lambda period, env: module.send_invoices(period, config(env, lease_url)),
        "2024-05",
        setup=lambda env: module.create_schema(str(env.path("app.db"))),
        observe=[EmailSink(), HttpSink(ROUTES), DbState(lambda env: module.snapshot(str(env.path("app.db"))))],
        lease_ttl=LEASE_TTL,
        **options,
    )


# ---------------------------------------------------------------------------- the unsafe job

UNSAFE_ANSWERS = {
    # Both runs passed the check before either recorded: everything twice.
    "concurrent": "can it run twice: no — 2 × charge cus_1 (expected 1)",
    # B ran while A was held mid-run; A then charged again.
    "overlap": "can it overlap itself: no — 2 × charge cus_1 (expected 1)",
    # Killed after charging, before recording: the recovery charges again.
    "kill": "can it die mid-run and recover: no — killed after effect #1 (charge cus_1), then recovered: 2 × charge cus_1 (expected 1)",
    # The charge went through but its response was lost; the retry charges again.
    "retry": "can it retry safely: no — failed after effect #1 (charge cus_1), then retried: 2 × charge cus_1 (expected 1)",
    # A completed run followed by a second one: the per-run notification goes out again.
    "replay": "is it idempotent: no — 2 × notification finance (expected 1)",
    # No lease, no fence: the paused runner resumes and charges again.
    "lease_expiry": "is a paused runner fenced off when its lease expires: no — 2 × charge cus_1 (expected 1)",
}


def test_unsafe_invoice_is_caught(jobcheck_scenario: Any) -> None:
    with pytest.raises(FiveQuestionsError) as failure:
        # Held before the first charge is enough to catch it (every point: the safe job's test).
        check_invoices(jobcheck_scenario, unsafe_invoice, pause_at=1)
    report = failure.value.suite[jobcheck_scenario.name]
    assert report.verdict == "no"
    assert report.line().startswith(UNSAFE_ANSWERS[jobcheck_scenario.name])
    if jobcheck_scenario.name in ("concurrent", "overlap"):
        assert report.count("email", "ada@example.com") == 2
    if jobcheck_scenario.name == "kill":
        assert len(report.parts) == 7 and all(part.verdict == "no" for part in report.parts)  # every effect
    if jobcheck_scenario.name == "retry":
        assert report.parts[0].runs[0].error.startswith("RemoteDisconnected")
    if jobcheck_scenario.name == "replay":
        assert report.count("charge") == 3  # the charges themselves were not repeated


# ---------------------------------------------------------------------------- the safe job


def safe_evidence(report: ScenarioReport) -> None:
    """Evidence, not just a green light, for the scenarios where the safe job's defence shows."""
    assert report.count("charge") == 3 and report.count("notification") == 1
    runs = report.runs
    if report.scenario == "concurrent":
        # A runner did the work. (The other normally returns "skipped: ... leased by another
        # runner"; not asserted, since on a machine too loaded to start it within the lease
        # TTL it takes over instead - harmlessly, as the scenario shows.)
        assert "'done'" in [r.result for r in runs]
    elif report.scenario == "kill":
        assert len(report.parts) == 9  # 7 effects and 2 checkpoints, each a kill point
        # The recovery after a kill between charge and mark resent with the same key, absorbed.
        after_first_charge = next(p for p in report.parts if p.variant.startswith("killed after effect #1 "))
        assert after_first_charge.variant == "killed after effect #1 (charge cus_1), then recovered"
        assert after_first_charge.observed.absorbed[("charge", "cus_1")] == 1
    elif report.scenario == "lease_expiry":
        # The runner paused past its lease was refused by the database.
        refused = [r for part in report.parts or [report] for r in part.runs if r.runner == "A" and r.status == "error"]
        assert refused and all(r.error.startswith("StaleTokenError") for r in refused)


def test_safe_invoice_answers_every_question(jobcheck_scenario: Any) -> None:
    safe_evidence(check_invoices(jobcheck_scenario, safe_invoice, points="all"))


@pytest.mark.jobcheck(scenarios=["concurrent", "overlap", "kill", "lease_expiry"])
@pytest.mark.parametrize("store", ["postgres", "redis"])
def test_safe_invoice_with_a_shared_lease_store(jobcheck_scenario: Any, request: pytest.FixtureRequest, store: str) -> None:
    url = request.getfixturevalue("postgres_dsn" if store == "postgres" else "redis_url")
    # Three points chosen by a fixed seed: the every-point proof is the SQLite test's above.
    report = check_invoices(jobcheck_scenario, safe_invoice, lease_url=url, points="random", samples=3, seed=20)
    assert report.count("charge", "cus_1") == 1


# ---------------------------------------------------------------------------- the shop's mail


def send_receipt(invoice: tuple[str, int], env: Any) -> None:
    from django.conf import settings

    settings.configure(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    from shop.notify import tell_customer

    address, amount = invoice
    tell_customer(address, "Receipt", f"We charged {amount}")


@pytest.mark.jobcheck(scenarios=["replay", "retry"])
def test_shop_receipt_mail_is_sent_again_by_every_run(jobcheck_scenario: Any) -> None:
    # examples/shop sends receipts through Django's mail API, with nothing recording that it did.
    with pytest.raises(FiveQuestionsError) as failure:
        jobcheck_scenario(send_receipt, ("ada@example.com", 4200), observe=[DjangoMail()])
    report = failure.value.suite[jobcheck_scenario.name]
    assert report.count("email", "ada@example.com") == 2
    assert "2 emails to ada@example.com (expected 1)" in report.line()
