"""`--output-format text`: each finding with a code frame, its job and chain, then a count per
rule and a total.

    app/tasks.py:51:13: JC201 [retry-on-unguarded-effect] `tasks.notify` is retried ...
       51 |             send_mail(subject, body, None, [user.email])
          |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
          = chain: tasks.notify -> mail.send_mail
          = job: app.tasks.notify (high confidence)

The layout is the same with and without colour; colour (rich, with the code line highlighted)
is used on a terminal or with `--color`. Without colour rich is not even imported: pre-commit
runs jobcheck on a few files many times a day, and start-up time is most of that run.
"""

from __future__ import annotations

from collections import Counter

from ..engine.fingerprint import SourceLines, was_read
from ..ruledocs import rules

# A line is a list of (text, style) segments; style names map to rich styles when colouring.
STYLES = {
    "path": "bold",
    "error": "bold red",
    "warning": "bold yellow",
    "info": "bold blue",
    "gutter": "dim",
    "dim": "dim",
    "name": "dim",
    "total": "bold",
}


def _frame(f, sources: SourceLines) -> list[list[tuple[str, str]]]:
    text = sources.line(f.path, f.line) if was_read(f) else ""
    if not text:
        return []
    tint = f.severity.value
    column = sources.char_column(f.path, f.line, f.column)
    prefix = text[: column - 1].expandtabs()
    shown = text.expandtabs()
    if f.span.end_line == f.line:
        end = sources.char_column(f.path, f.line, f.span.end_column)
        width = len(text[: end - 1].expandtabs()) - len(prefix)
    else:
        width = len(shown) - len(prefix)
    return [
        [(f"{f.line:>5} | ", "gutter"), (shown, "code")],
        [("      | ", "gutter"), (" " * len(prefix), ""), ("^" * max(1, width), tint)],
    ]


def _lines(report, sources: SourceLines, summary: bool):
    for f in report.findings:
        tint = f.severity.value
        yield [(f"{f.path}:{f.line}:{sources.char_column(f.path, f.line, f.column)}:", "path"), (" ", ""),
               (f.code, tint), (" ", ""), (f"[{f.name}]", "name"), (f" {f.message}", "")]
        yield from _frame(f, sources)
        if len(f.chain) > 1:
            yield [("      = chain: ", "dim"), (" -> ".join(f.chain), "")]
        if len(f.jobs) > 1:
            more = f" and {len(f.jobs) - 3} more" if len(f.jobs) > 3 else ""
            yield [("      = jobs: ", "dim"), (f"{', '.join(f.jobs[:3])}{more} ({f.confidence.value} confidence)", "")]
        elif f.job:
            yield [("      = job: ", "dim"), (f"{f.job} ({f.confidence.value} confidence)", "")]
        yield []
    if not summary:
        return
    yield from rule_counts(report.findings)
    total = len(report.findings)
    files = f"{report.files} file{'s' if report.files != 1 else ''}"
    if total:
        yield [(f"Found {total} finding{'s' if total != 1 else ''} in {files}.", "total")]
    else:
        yield [(f"No findings in {files}.", "total")]


def rule_totals(findings) -> list[tuple[str, str, int]]:
    """(code, rule name, how many findings) per rule that has findings, by code."""
    counts = Counter(f.code for f in findings)
    names = {code: info.name for code, info in rules().items()}
    for f in findings:
        names.setdefault(f.code, f.name)
    return [(code, names[code], n) for code, n in sorted(counts.items())]


def rule_counts(findings):
    """A line per rule: how many findings, the code, the rule's name (also `--statistics`)."""
    totals = rule_totals(findings)
    width = len(str(max((n for _, _, n in totals), default=0)))
    for code, name, n in totals:
        yield [(f"{n:>{width + 2}}  ", "total"), (code, ""), (f"  {name}", "name")]


def render(report, stream, color: bool = False, sources: dict | None = None, summary: bool = True, **_options) -> None:
    """`summary=False` (`--quiet`): the findings only, without the counts and the total."""
    write_lines(_lines(report, SourceLines(sources), summary), stream, color)


def write_lines(lines, stream, color: bool) -> None:
    if not color:
        for segments in lines:
            stream.write("".join(text for text, _ in segments) + "\n")
        return
    _render_rich(lines, stream)


def _render_rich(lines, stream) -> None:
    from rich.console import Console
    from rich.syntax import Syntax
    from rich.text import Text

    console = Console(file=stream, force_terminal=True, soft_wrap=True, highlight=False, markup=False, emoji=False)
    if console.color_system is None and not console.no_color:  # forced colour on a dumb terminal
        console = Console(file=stream, force_terminal=True, color_system="standard", soft_wrap=True,
                          highlight=False, markup=False, emoji=False)
    syntax = Syntax("", "python", theme="ansi_dark", background_color="default")
    for segments in lines:
        line = Text()
        for text, style in segments:
            if style == "code":
                code = syntax.highlight(text)
                code.rstrip()
                line.append_text(code)
            else:
                line.append(text, STYLES.get(style, ""))
        console.print(line)
