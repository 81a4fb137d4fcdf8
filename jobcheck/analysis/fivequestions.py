"""The five-questions docstring convention: a `Reliability:` section with five `key: answer` lines.

    Reliability:
        Runs twice: safe; key (invoice_id, "send") recorded with the outbox row.
        Overlaps: no; one run per invoice, guarded by the outbox row lock.
        Dies mid-run: the outbox row is committed first; the relay resumes from it.
        Retries: bounded to 3 with backoff; exhaustion goes to invoices.dead.
        Idempotent: yes; the relay sends each outbox row once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

QUESTIONS = ("runs_twice", "overlaps", "dies_mid_run", "retries", "idempotent")
QUESTION_TEXT = {
    "runs_twice": "can it run twice",
    "overlaps": "can it overlap itself",
    "dies_mid_run": "what if the machine dies mid-run",
    "retries": "can it retry safely",
    "idempotent": "is it idempotent",
}
LABELS = {
    "runs_twice": "Runs twice",
    "overlaps": "Overlaps",
    "dies_mid_run": "Dies mid-run",
    "retries": "Retries",
    "idempotent": "Idempotent",
}
# The phrasings people write for each question, matched against the key before the colon.
_KEY_PATTERNS = (
    ("runs_twice", re.compile(r"twice|run\s*again|duplicate|double|re-?run|runs?\s+more\s+than\s+once", re.I)),
    ("overlaps", re.compile(r"overlap|concurren|parallel", re.I)),
    ("dies_mid_run", re.compile(r"\bdies?\b|crash|killed|mid-?run|machine|interrupt", re.I)),
    ("retries", re.compile(r"retr", re.I)),
    ("idempotent", re.compile(r"idempot", re.I)),
)
_PLACEHOLDER = re.compile(r"^\s*(|todo|tbd|fixme|xxx|\?+|\.\.\.|…|-|n/?a|unknown|<[^>]*>|\[[^\]]*\])\s*[.:]?\s*$", re.I)
_PLACEHOLDER_PREFIX = re.compile(r"^\s*(todo|tbd|fixme|xxx)\b", re.I)
# `key: answer`, `Key? answer` (the question asked: `Can it run twice? Yes - ...`), after a
# bullet or a number, the key possibly in bold.
_LINE = re.compile(r"^\s*(?:(?:[-*\u2022]|\d+[.)])\s*)?\**([A-Za-z][\w \-/']{1,40}?)\**\s*(\?\s*:?|:)\**\s*(.*)$")


@dataclass
class Answers:
    has_section: bool
    answers: dict = field(default_factory=dict)  # question -> answer text
    keys: dict = field(default_factory=dict)  # question -> the key as written (`Can it run twice?`)
    placeholders: list = field(default_factory=list)  # questions answered with TODO/TBD/?

    @property
    def missing(self) -> list[str]:
        return [q for q in QUESTIONS if q not in self.answers]

    @property
    def complete(self) -> bool:
        return not self.missing and not self.placeholders


def read(docstring: str | None, section: str = "Reliability") -> Answers:
    """Find the section and its answers; tolerate the phrasings people actually write."""
    if not docstring:
        return Answers(has_section=False)
    lines = docstring.expandtabs().splitlines()
    header = re.compile(rf"^\s*{re.escape(section)}\s*:?\s*$", re.I)
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is not None:
        body = _section_body(lines, start)
    else:
        body = lines  # no header: answers written inline still count, and say which are missing
    answers: dict[str, str] = {}
    keys: dict[str, str] = {}
    last: str | None = None
    for line in body:
        match = _LINE.match(line)
        question = _question(match.group(1)) if match else None
        if question is not None and question not in answers:
            answers[question] = match.group(3).strip()
            keys[question] = match.group(1).strip() + ("?" if "?" in match.group(2) else "")
            last = question
        elif last is not None and line.strip() and start is not None:
            answers[last] = f"{answers[last]} {line.strip()}".strip()  # a wrapped answer
    has_section = start is not None or len(answers) >= 2
    if not has_section:
        return Answers(has_section=False)
    placeholders = [q for q, a in answers.items() if _PLACEHOLDER.match(a) or _PLACEHOLDER_PREFIX.match(a)]
    return Answers(has_section=True, answers=answers, keys=keys, placeholders=placeholders)


def _section_body(lines: list[str], start: int) -> list[str]:
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1 :]:
        if not line.strip():
            if body:
                break
            continue
        if len(line) - len(line.lstrip()) <= indent and body:
            break
        body.append(line)
    return body


def _question(key: str) -> str | None:
    for question, pattern in _KEY_PATTERNS:
        if pattern.search(key):
            return question
    return None


def read_job(project, site, section: str = "Reliability") -> Answers:
    """A job's answers: its docstring owner's (the Task class), or the function's that runs
    (a Task class may answer on `run()`), whichever answers more."""
    docs = [_doc(project, site.doc_owner)]
    if site.doc_owner != site.function:
        docs.append(_doc(project, site.function))
    return max((read(d, section) for d in docs), key=lambda a: (a.has_section, len(a.answers) - len(a.placeholders)))


def _doc(project, qualname: str) -> str | None:
    fn = project.functions.get(qualname)
    if fn is not None:
        return fn.docstring
    cls = project.classes.get(qualname)
    return cls.docstring if cls is not None else None
