"""JC503 contradicted-five-questions: a job's five-questions section claims what its code
disproves. The claims (`analysis.claims`) and what disproves each:

- "Retries: none" — something retries it (`retry_of`: its settings, the framework's default, a
  retry decorator);
- "Runs twice: safe", "Idempotent: yes" — an external effect it reaches has no idempotency
  guard (`call_effects`, what JC201 reads; enqueues are left out: whether a repeat harms is the
  enqueued job's answer);
- "Overlaps: no" — a periodic job of a scheduler that starts the next run whatever the last one
  is doing, and nothing it reaches takes a lock or a set-if-absent marker, and no decorator
  setting makes it single-instance;
- "Dies mid-run: resumes" — nothing it reaches writes anything a restart could resume from;
- "Retries: safe" — it is retried on any exception and reaches an unguarded effect (what JC201
  reports; a retry on named exceptions depends on where they are raised, left to JC201).

An answer the reader cannot classify, or a fact the analysis does not know (a scheduler whose
overlap behaviour is not listed here), is never reported.
"""

from __future__ import annotations

import re

from ..analysis import fivequestions
from ..analysis.claims import claim
from ..analysis.jobs import STRUCTURAL_KINDS
from ..analysis.names import short
from .context import CheckContext, ProjectView

CODES = ("JC503",)
# Schedulers that start a periodic job on time whether or not its last run has finished.
_OVERLAPPING = frozenset(("celery", "huey", "rq", "dramatiq", "command", "django_extensions", "django_q", "taskiq"))
# Names of calls, `with` items and decorator settings that keep a second run out.
_GUARD = re.compile(r"(?i)lock|mutex|semaphore|single|once|unique|advisory|exclusive|lease")
# Calls whose name says they write something a later run can read.
_WRITES = re.compile(r"(?i)^(a?save|a?update\w*|a?create\w*|bulk_\w+|set\w*|hset\w*|add\w*|put\w*|write\w*|dump\w*|"
                     r"commit|flush|execute\w*|upsert\w*|insert\w*|store\w*|persist\w*|record\w*|mark\w*|checkpoint\w*|"
                     r"append|push\w*|[lr]push|sadd|zadd|incr\w*|replace\w*|merge|upload\w*|rename|copy\w*|move\w*)$")
_REACH_LIMIT = 400
_CATCH_ALL = ("Exception", "BaseException")
_VERBS = {"email": "sends email", "sms": "sends an SMS", "http": "makes an HTTP write",
          "payment": "makes a payment call", "publish": "publishes a message"}


def run(ctx: CheckContext):
    project = ctx.project
    seen: set[str] = set()
    for site in project.jobs.values():
        if site.kind in STRUCTURAL_KINDS or site.doc_owner in seen or site.function not in project.functions:
            continue
        seen.add(site.doc_owner)
        answers = fivequestions.read_job(project, site, ctx.docstring_section)
        if not answers.has_section:
            continue
        wrong = []
        for question in fivequestions.QUESTIONS:
            answer = answers.answers.get(question)
            if answer is None or question in answers.placeholders:
                continue
            said = claim(question, answer, answers.keys.get(question, ""))
            evidence = _DISPROOF[said](project, site) if said else None
            if evidence:
                key = answers.keys.get(question, fivequestions.LABELS[question])
                sep = " " if key.endswith("?") else ": "
                wrong.append(f"\"{key}{sep}{_quote(answer)}\" but {evidence}")
        if wrong:
            yield ctx.finding(
                "JC503",
                site.anchor,
                f"job `{site.display}` answers {'; and '.join(wrong)}. Correct the answers or the code",
                job=site.display,
                function=site.function,
            )


def _retried(project: ProjectView, site) -> str | None:
    policy = project.retry_of(site.function)
    if policy is None:
        return None
    how = "by the framework's default" if policy.from_default else "as configured"
    return f"it is retried {how} ({policy.setting})"


def _unguarded_effect(project: ProjectView, site) -> str | None:
    effect = _first_unguarded_effect(project, site)
    return f"it {effect}: a second run repeats it" if effect else None


def _first_unguarded_effect(project: ProjectView, site) -> str | None:
    for ce in project.call_effects(site.function):
        if ce.path.kind in _VERBS:
            line = project.functions[site.function].events[ce.event_index].line
            chain = " -> ".join(short(c) for c in (site.function, *ce.path.chain))
            return f"{_VERBS[ce.path.kind]} with no idempotency guard ({chain}, line {line})"
    return None


def _unguarded_overlap(project: ProjectView, site) -> str | None:
    if "schedule" not in site.triggers or site.framework not in _OVERLAPPING:
        return None
    fn = project.functions[site.function]
    if any(_GUARD.search(repr(value)) for value, *_ in fn.decorators) or any(
            _GUARD.search(f"{k}={v!r}") for k, v in site.settings.items()):
        return None
    reach = _reach(project, site.function)
    if reach is None:
        return None
    for reached in reach:
        if any(_GUARD.search(project.canonical(r.name) or r.name or "") for r in reached.regions):
            return None
        for ev in reached.events:
            name = project.event_name(ev) or ev.name or ev.attr or ""
            if ev.kind == "call" and (_GUARD.search(name) or name in project.catalog.markers
                                      or (ev.attr == "set" and "nx" in ev.kwargs)):
                return None
    return (f"it runs on a schedule ({site.framework}) that starts the next run whether or not the last one "
            f"finished, and takes no lock")


def _records_nothing(project: ProjectView, site) -> str | None:
    reach = _reach(project, site.function)
    if reach is None:
        return None
    for reached in reach:
        for ev in reached.events:
            if ev.kind == "call" and (_WRITES.match(ev.attr or "") or project.writes_db(ev, reached) is not None):
                return None
        if project.call_effects(reached.qualname):
            return None
    return "nothing it reaches writes a record, key, marker or checkpoint a restart could resume from"


def _retry_repeats_effect(project: ProjectView, site) -> str | None:
    """A retry on any exception (`Exception` included) repeats every unguarded effect before the
    failure (JC201's reading); a retry on narrower exceptions or asked for in the body depends on where they can
    happen, which JC201 decides: not claimed here."""
    policy = project.retry_of(site.function)
    if policy is None or (policy.on is not None and not (policy.on and all(
            (project.canonical(e) or e).rpartition(".")[2] in _CATCH_ALL for e in policy.on))):
        return None
    effect = _first_unguarded_effect(project, site)
    return f"it is retried on any exception ({policy.setting}) and {effect}: a retry repeats it" if effect else None


_DISPROOF = {"none": _retried, "safe": _unguarded_effect, "yes": _unguarded_effect, "no": _unguarded_overlap,
             "resumes": _records_nothing, "retry-safe": _retry_repeats_effect}


def _reach(project: ProjectView, qualname: str):
    """The function and every project function it calls, at any depth; None past the bound (not
    known, so nothing is claimed about it)."""
    order, todo = {}, [qualname]
    while todo:
        if len(order) >= _REACH_LIMIT:
            return None
        q = todo.pop()
        fn = project.functions.get(q)
        if fn is None or q in order:
            continue
        order[q] = fn
        todo.extend(c.qualname for ev in fn.events for c in project.callees(ev) if c.qualname not in order)
    return list(order.values())


def _quote(answer: str) -> str:
    text = " ".join(answer.split())
    return text if len(text) <= 80 else text[:77] + "..."
