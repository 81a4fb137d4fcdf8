"""The text of the five-questions section the JC501 fix inserts: what the analysis knows, stated
as facts, and a `TODO` for each judgment, so JC502 keeps reporting the job until a person
answers. The facts are the retry settings (and whether they are the framework's default), the
unguarded external effects with their call chains, the locks seen, and how the job is triggered.
"""

from __future__ import annotations

import textwrap

from ...analysis import fivequestions
from ...analysis.jobs import JobSite
from ...analysis.names import short
from ...analysis.delivery import UNKNOWN
from ...analysis.facts import OVERLAP_SETTINGS, guarded_effects, locks_taken, reach
from ...analysis.project import Project
from ...analysis.records import RECORDED_KINDS, records_after
from ...analysis.values import render

WIDTH = 88  # lines of the section, indentation included, wrap before this
_MAX_EFFECTS = 5
_KIND_NOUNS = {
    "email": "email",
    "sms": "SMS",
    "http": "HTTP write",
    "payment": "payment",
    "publish": "message publish",
    "enqueue": "enqueue",
}
_QUESTIONS = {
    "runs_twice": "say what a second delivery of the same work does.",
    "overlaps": "say whether two runs can overlap and what stops them.",
    "dies_mid_run": "say what a crash between the steps leaves behind and what resumes it.",
    "retries": "say whether a retry is safe and where exhaustion ends up.",
    "idempotent": "say what makes a repeat harmless (a key, an outbox, a check).",
}


def lines(project: Project, site: JobSite, section: str = "Reliability", indent: str = "    ",
          width: int = WIDTH) -> list[str]:
    """The section's lines, relative to the docstring's indentation (`indent` is one level).
    `width` is what is left of the line after the docstring's own indentation."""
    facts = _facts(project, site)
    out, meant = _render(section, facts, indent, width)
    if not _reads_back(out, meant, section):
        # A fact whose wording the reader would take for another answer: keep only the TODOs.
        out, _ = _render(section, {}, indent, width)
    return out


def _render(section: str, facts: dict[str, str], indent: str, width: int) -> tuple[list[str], dict[str, str]]:
    """The lines, and each question's answer as written (before wrapping)."""
    out, meant = [f"{section}:"], {}
    for q in fivequestions.QUESTIONS:
        answer = f"TODO - {_QUESTIONS[q]}" + (f" {' '.join(facts[q].split())}" if facts.get(q) else "")
        meant[q] = answer
        out.extend(textwrap.wrap(f"{fivequestions.LABELS[q]}: {answer}", width=max(40, width), initial_indent=indent,
                                 subsequent_indent=indent * 2, break_long_words=False, break_on_hyphens=False))
    return out, meant


def _reads_back(section_lines: list[str], meant: dict[str, str], section: str) -> bool:
    """The reader must find exactly the five answers written, each a placeholder."""
    answers = fivequestions.read("\n".join(section_lines), section)
    return (answers.has_section and answers.answers == meant
            and set(answers.placeholders) == set(fivequestions.QUESTIONS))


def _facts(project: Project, site: JobSite) -> dict[str, str]:
    facts: dict[str, str] = {}
    effects = _effects(project, site.function)
    facts["runs_twice"] = (
        "Effects jobcheck found with no idempotency guard - " + "; ".join(effects) + "."
        if effects else "jobcheck found no unguarded external effect."
    )
    guarded = _guarded_effects(project, site.function)
    if guarded:
        facts["runs_twice"] += " With a guard - " + "; ".join(guarded) + "."
    overlap = []
    if "schedule" in site.triggers:
        overlap.append("It runs on a schedule.")
    overlap.extend(_settings(site, OVERLAP_SETTINGS))
    locks = locks_taken(project, site.function)[:3]
    overlap.append(f"Locks seen - {', '.join(locks)}." if locks else "jobcheck saw no lock.")
    facts["overlaps"] = " ".join(overlap)
    crash = _settings(site, ("acks_late", "reject_on_worker_lost"))
    delivery = project.delivery(site.function)
    if delivery is not None and delivery.guarantee != UNKNOWN:
        crash.append(f"Delivery - {delivery.guarantee}.")  # what decides it: `jobcheck jobs`
    crash.extend(_effects_before_records(project, site.function))
    if crash:
        facts["dies_mid_run"] = " ".join(crash)
    facts["retries"] = _retries(project, site)
    return facts


def _settings(site: JobSite, keys: tuple[str, ...]) -> list[str]:
    found = ", ".join(f"{k}={render(v)}" for k, v in sorted(site.settings.items()) if k in keys)
    return [f"Settings - {found}."] if found else []


def _guarded_effects(project: Project, qualname: str) -> list[str]:
    """External effects the job makes with a guard jobcheck recognises (a key, a marker)."""
    out: list[str] = []
    for kind, call, _ in guarded_effects(project, qualname):
        text = f"{_KIND_NOUNS.get(kind, kind)} via {short(call)}"
        if text not in out:
            out.append(text)
    return out[:_MAX_EFFECTS]


def _effects_before_records(project: Project, qualname: str) -> list[str]:
    """The JC401 shape: an effect, then the write that records it (a crash between repeats it)."""
    out = []
    for q in reach(project, qualname) if qualname in project.functions else ():
        fn = project.functions[q]
        for ce in project.call_effects(q):
            record = records_after(project, fn, ce.event_index) if ce.path.kind in RECORDED_KINDS else None
            if record is not None:
                # Names, not lines: the section itself moves every line below it.
                out.append(f"Effect before record - {_KIND_NOUNS[ce.path.kind]} via {short(ce.path.chain[-1])} "
                           f"in {short(q)}, then `{record.field}` written after it.")
    return out[:_MAX_EFFECTS]


def _effects(project: Project, qualname: str) -> list[str]:
    if qualname not in project.functions:
        return []
    out = []
    for path in project.reachable_effects(qualname):
        chain = " -> ".join(short(n) for n in path.chain)
        out.append(f"{_KIND_NOUNS.get(path.kind, path.kind)} via {chain}")
    if len(out) > _MAX_EFFECTS:
        out = out[:_MAX_EFFECTS] + [f"and {len(out) - _MAX_EFFECTS} more"]
    return out


def _retries(project: Project, site: JobSite) -> str:
    policy = project.retry_of(site.function) if site.function in project.functions else None
    if policy is not None:
        how = "by default" if policy.from_default else "as configured"
        limit = ("no limit" if not policy.bounded else f"at most {policy.limit} retries" if policy.limit is not None
                 else f"bounded by {policy.retries.count_from}")
        backoff = f", {policy.backoff} backoff" if policy.backoff else ""
        handler = f", failure handler {policy.failure_handler}" if policy.failure_handler else ""
        return f"Retried {how} ({policy.setting}) - {limit}{backoff}{handler}."
    configured = site.retry
    if configured is not None and configured.disabled:
        return f"Retries are off ({configured.setting})."
    if configured is not None and not configured.from_default and "=" in configured.setting:
        return f"Retry settings are written ({configured.setting}), but nothing triggers a retry."
    return "jobcheck found nothing that retries it."
