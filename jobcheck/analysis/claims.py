"""What a five-questions answer claims, where the claim is one the code can disprove.

Each question has one checkable claim:

    runs_twice    "safe"      Runs twice: safe / Can it run twice? Yes - ... / harmless
    idempotent    "yes"       Idempotent: yes / Idempotency: fully idempotent
    retries       "none"      Retries: none / not retried / no retries / disabled / 0
                  "retry-safe" Retries: safe / Can it retry safely? Yes
    overlaps      "no"        Overlaps: no / Can it overlap? Never / cannot
    dies_mid_run  "resumes"   Dies mid-run: resumes / picks up where it left off

An answer's first clause (up to `;`, `,`, ` - `, `.`, `(`) decides. An answer that hedges
(`yes, but ...`, `safe unless ...`), negates (`not safe`), leans on the far end (`the partner
deduplicates`), or says anything else claims nothing checkable: `claim` returns None and the answer is never reported. "No" under a key that asks
whether retrying is *safe* (`Can it retry safely? No`) is a judgment, not "no retries".
"""

from __future__ import annotations

import re

_CLAUSE_END = re.compile(r"\s+[-\u2013\u2014]\s+|[;,.:(\u2013\u2014]|\s+-$")
# A qualified answer anywhere in it, or a first clause that says more than the claim.
_HEDGE = re.compile(r"(?i)\b(but|unless|except|however|depends|maybe|probably|partly|partially|mostly|usually|"
                    r"sometimes|unsafe|todo|tbd)\b|\bnot safe|n't safe")
# Safety the far end gives, which the code cannot show: the claim may hold.
_FAR_END = re.compile(r"(?i)dedup\w*|ignores? (repeats|duplicates|retries)|drops? (repeats|duplicates)")
_CONDITION = re.compile(r"(?i)^\W*(if|when|only|as long as|provided|assuming|unless)\b")
_CLAUSE_HEDGE = re.compile(r"(?i)\b(not|twice|again|duplicat\w*|repeat\w*|double\w*|if|when|only)\b|n't")
_CLAIMS = {
    "runs_twice": ("safe", re.compile(r"(?i)^(yes|safe|safely|harmless|fine|ok|okay|idempotent|no harm|no problem|"
                                      r"yes safe|yes it is safe|it is safe|it's safe|safe to run twice)$")),
    "idempotent": ("yes", re.compile(r"(?i)^(yes|idempotent|fully idempotent|yes idempotent|it is|it is idempotent|"
                                     r"safe|true)$")),
    "retries": ("none", re.compile(r"(?i)^(no|none|none configured|never|never retried|not retried|no retries|no retry|"
                                   r"no retrying|disabled|retries disabled|off|0|zero|0 retries|no automatic retries|"
                                   r"not configured)$")),
    "overlaps": ("no", re.compile(r"(?i)^(no|never|cannot|can't|can not|impossible|not possible|no overlap|"
                                  r"does not overlap|doesn't overlap|it cannot|it can't|never overlaps|"
                                  r"it does not|it doesn't|won't|will not)$")),
}
# "No" alone answers whether retrying is safe, not whether it retries, under these keys.
_ASKS_SAFETY = re.compile(r"(?i)safe|can\b|\?")
_RESUMES = re.compile(r"(?i)\bresum\w*|picks? up where|where it left off|from (?:the |its )?(?:last )?checkpoint|"
                      r"continues? from")
# A resumption the framework gives (the whole job runs again), not one the job records.
_RERUN = re.compile(r"(?i)redeliver\w*|acks?_late|re-?run|re-?queue\w*|retried|retry|from scratch|starts? over|"
                    r"again|not resum\w*|n't resume|cannot resume|no resum\w*")


def split_clause(answer: str) -> tuple[str, str]:
    """The answer's first clause (trimmed, quotes and emphasis removed) and what follows it."""
    text = answer.strip().strip("*_`\"'").strip()
    match = _CLAUSE_END.search(text)
    clause, rest = (text[: match.start()], text[match.start():]) if match else (text, "")
    return " ".join(re.sub(r"[!*_`\"']", "", clause).split()), rest


def claim(question: str, answer: str, key: str = "") -> str | None:
    """The checkable claim an answer makes (see the module docstring), or None."""
    if question == "dies_mid_run":
        return "resumes" if _RESUMES.search(answer) and not _RERUN.search(answer) else None
    entry = _CLAIMS.get(question)
    if entry is None:
        return None
    name, pattern = entry
    clause, rest = split_clause(answer)
    if (question == "retries" and not pattern.match(clause) and _CLAIMS["runs_twice"][1].match(clause)
            and (not clause.lower().startswith(("yes", "ok", "fine")) or _ASKS_SAFETY.search(key))):
        # "Retries: safe", "Can it retry safely? Yes" (under a plain `Retries` key, "yes" says it retries)
        name, pattern, question = "retry-safe", _CLAIMS["runs_twice"][1], "runs_twice"
    if not pattern.match(clause) or _HEDGE.search(answer) or _CONDITION.match(rest):
        return None
    if question == "retries" and clause.lower() == "no" and _ASKS_SAFETY.search(key):
        return None
    if question in ("runs_twice", "idempotent") and (_CLAUSE_HEDGE.search(clause) or _FAR_END.search(answer)):
        return None
    return name
