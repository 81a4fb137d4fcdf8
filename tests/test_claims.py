"""The five-questions reader on the wordings the convention allows, and the claims JC503 checks:
every wording it must read, and the answers it must leave alone (hedged, negated, judgments)."""

from __future__ import annotations

import pytest

from jobcheck.analysis import fivequestions
from jobcheck.analysis.claims import claim

SECTIONS = {
    "keys and colons": """Reliability:
        Runs twice: safe
        Overlaps: no
        Dies mid-run: resumes
        Retries: none
        Idempotent: yes
    """,
    "questions asked": """Reliability:
        Can it run twice? Safe
        Can it overlap itself? No
        What if the machine dies mid-run? resumes
        Can it retry safely?: none
        Is it idempotent? Yes
    """,
    "bullets, numbers, bold, case": """RELIABILITY:
        - runs TWICE: safe
        * **Overlaps**: no
        1. Dies mid-run: resumes
        2) **Retries:** none
        \u2022 IDEMPOTENT: yes
    """,
}


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_every_wording_of_the_section_is_read(name: str) -> None:
    answers = fivequestions.read(SECTIONS[name])
    assert answers.has_section and answers.complete
    assert [claim(q, answers.answers[q], answers.keys[q]) for q in fivequestions.QUESTIONS] == [
        "safe", "no", "resumes", "none", "yes"]


def test_a_question_asked_inline_reads_without_a_header() -> None:
    answers = fivequestions.read("Sync.\n\nCan it run twice? Yes - upserts.\nRetries: none.\n")
    assert answers.has_section and answers.answers["runs_twice"] == "Yes - upserts."


CLAIMS = [
    ("runs_twice", "safe; key (invoice_id, \"send\") recorded with the outbox row.", "Runs twice", "safe"),
    ("runs_twice", "Yes - totals are recomputed from the lines.", "Can it run twice", "safe"),
    ("runs_twice", "Yes; totals are recomputed", "Can it run twice", "safe"),
    ("runs_twice", "SAFE", "RUNS TWICE", "safe"),
    ("runs_twice", "**Safe**, the row is locked", "Runs twice", "safe"),
    ("runs_twice", "harmless: both runs write the same totals", "Runs twice", "safe"),
    ("runs_twice", "yes it is safe", "Runs twice", "safe"),
    ("runs_twice", "no - it sends the email again", "Runs twice", None),
    ("runs_twice", "yes, but it sends the email twice", "Can it run twice", None),
    ("runs_twice", "safe unless the provider is down", "Runs twice", None),
    ("runs_twice", "not safe", "Runs twice", None),
    ("runs_twice", "TODO - say what a second delivery does", "Runs twice", None),
    ("runs_twice", "depends on the caller", "Runs twice", None),
    ("runs_twice", "mostly safe", "Runs twice", None),
    ("runs_twice", "yes twice", "Runs twice", None),
    ("runs_twice", "it sends a second email", "Runs twice", None),
    ("runs_twice", "Yes - the partner ignores repeats", "Can it run twice?", None),
    ("idempotent", "yes; the provider deduplicates on the order id", "Idempotent", None),
    ("idempotent", "yes; the relay sends each outbox row once.", "Idempotent", "yes"),
    ("idempotent", "Yes.", "Idempotency", "yes"),
    ("idempotent", "no", "Idempotent", None),
    ("idempotent", "yes, if the key is set", "Idempotent", None),
    ("idempotent", "partially: the email is not", "Idempotent", None),
    ("retries", "none configured; the relay retries sends.", "Retries", "none"),
    ("retries", "none", "Retries", "none"),
    ("retries", "No", "Retries", "none"),
    ("retries", "0", "Retries", "none"),
    ("retries", "never retried - failures go to the dead letter queue", "Retries", "none"),
    ("retries", "No", "Can it retry safely", None),
    ("retries", "no", "Retry safely", None),
    ("retries", "bounded to 3 with backoff", "Retries", None),
    ("retries", "none, but the broker redelivers", "Retries", None),
    ("retries", "safe; bounded to 3 with backoff", "Retries", "retry-safe"),
    ("retries", "Yes.", "Can it retry safely?", "retry-safe"),
    ("retries", "yes", "Retries", None),
    ("retries", "yes, but the email goes again", "Can it retry safely?", None),
    ("overlaps", "no; one run per invoice, guarded by the outbox row lock.", "Overlaps", "no"),
    ("overlaps", "Never.", "Can it overlap", "no"),
    ("overlaps", "harmless; the same rows are written.", "Overlaps", None),
    ("overlaps", "yes", "Overlaps", None),
    ("overlaps", "no, unless the run takes more than an hour", "Overlaps", None),
    ("overlaps", "no, if one worker runs the queue", "Overlaps", None),
    ("dies_mid_run", "the outbox row is committed first; the relay resumes from it.", "Dies mid-run", "resumes"),
    ("dies_mid_run", "resumes", "Dies mid-run", "resumes"),
    ("dies_mid_run", "picks up where it left off", "Machine dies", "resumes"),
    ("dies_mid_run", "acks_late: the broker redelivers and it resumes", "Dies mid-run", None),
    ("dies_mid_run", "does not resume; a person reruns it", "Dies mid-run", None),
    ("dies_mid_run", "the next run recomputes.", "Machine dies", None),
]


@pytest.mark.parametrize(("question", "answer", "key", "wanted"), CLAIMS)
def test_claims(question: str, answer: str, key: str, wanted: str | None) -> None:
    assert claim(question, answer, key) == wanted
