"""JC501 missing-five-questions, JC502 incomplete-five-questions: a job entry point's docstring
must answer can it run twice, can it overlap itself, what if the machine dies mid-run, can it
retry safely, is it idempotent — where the next reader of the code will look."""

from __future__ import annotations

from ..analysis import fivequestions
from ..analysis.jobs import STRUCTURAL_KINDS
from .context import CheckContext

CODES = ("JC501", "JC502")


def run(ctx: CheckContext):
    project = ctx.project
    seen: set[str] = set()
    for site in project.jobs.values():
        if site.kind in STRUCTURAL_KINDS or site.doc_owner in seen:
            continue
        seen.add(site.doc_owner)
        answers = fivequestions.read_job(project, site, ctx.docstring_section)
        if not answers.has_section:
            yield ctx.finding(
                "JC501",
                site.anchor,
                f"job `{site.display}` ({site.framework}) does not answer the five questions: add a "
                f"`{ctx.docstring_section}:` section saying whether it can run twice, overlap, survive dying "
                f"mid-run, retry safely, and is idempotent",
                job=site.display,
                function=site.function,
            )
        elif not answers.complete:
            parts = []
            if answers.missing:
                parts.append("missing: " + ", ".join(fivequestions.QUESTION_TEXT[q] for q in answers.missing))
            if answers.placeholders:
                parts.append("placeholder answers: " + ", ".join(fivequestions.LABELS[q] for q in answers.placeholders))
            yield ctx.finding(
                "JC502",
                site.anchor,
                f"job `{site.display}` answers the five questions only in part ({'; '.join(parts)})",
                job=site.display,
                function=site.function,
            )

