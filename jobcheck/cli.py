"""The command line: parses options, calls the api, prints, and sets the exit code. Nothing else.

Exit codes: 0 clean, 1 findings, 2 usage, configuration or internal error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [c.strip().upper() for c in value.split(",") if c.strip()]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="jobcheck")
def main() -> None:
    """jobcheck: a linter for scheduled and background jobs."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", help="Comma-separated rule codes or prefixes to check (replaces the configured selection).")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to skip.")
@click.option("--extend-select", help="Comma-separated rule codes to add to the selection.")
@click.option("--output-format", "output_format", type=click.Choice(["text", "concise", "json"]), default="text", show_default=True)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Read configuration from this pyproject.toml.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--force-exclude", is_flag=True, help="Apply exclusions to paths given explicitly too (for pre-commit).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: when writing to a terminal).")
def check(paths, select, ignore, extend_select, output_format, config_path, exit_zero, force_exclude, color) -> None:
    """Check PATHS (default: the current folder) for unsafe job code."""
    from . import api, config as config_mod
    from .output import renderer

    paths = list(paths) or ["."]
    try:
        start = Path(paths[0]) if Path(paths[0]).exists() else Path.cwd()
        cfg = config_mod.load(Path(config_path) if config_path else None, start=start)
        selection = api.Selection(_codes(select), _codes(ignore), _codes(extend_select))
        from .ruledocs import known_codes

        for code in (selection.select or []) + (selection.ignore or []) + (selection.extend_select or []):
            if code != "ALL" and not any(k.startswith(code) for k in known_codes()):
                raise config_mod.ConfigError(f"unknown rule {code!r} on the command line")
        report = api.check_paths(paths, cfg, selection, force_exclude=force_exclude)
    except config_mod.ConfigError as exc:
        click.echo(f"jobcheck: configuration error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    render = renderer(output_format)
    use_color = sys.stdout.isatty() if color is None else color
    render(report, sys.stdout, color=use_color)
    sys.stdout.flush()
    if report.findings and not exit_zero:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_CLEAN)


@main.command()
@click.argument("rule")
def explain(rule: str) -> None:
    """Show the documentation of RULE (a code like JC201 or a name like retry-on-unguarded-effect)."""
    from .ruledocs import document

    found = document(rule)
    if found is None:
        click.echo(f"jobcheck: unknown rule {rule!r}; `jobcheck rules` lists them", err=True)
        sys.exit(EXIT_ERROR)
    info, body = found
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console()
    console.print(Markdown(f"# {info.code} {info.name}\n\n*{info.summary}* — severity {info.severity.value}, "
                           f"answers: {info.question or 'n/a'}\n\n{body}"))


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def rules_cmd(fmt: str) -> None:
    """List the rule catalog."""
    from .ruledocs import rules

    catalog = rules()
    if fmt == "json":
        import json

        click.echo(json.dumps([
            {"code": r.code, "name": r.name, "summary": r.summary, "severity": r.severity.value,
             "question": r.question, "default": r.default, "precision": r.precision}
            for r in catalog.values()
        ], indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="jobcheck rules")
    for column in ("code", "name", "question", "severity", "default", "summary"):
        table.add_column(column)
    for r in catalog.values():
        table.add_row(r.code, r.name, r.question, r.severity.value, "yes" if r.default else "no", r.summary)
    Console().print(table)


if __name__ == "__main__":  # pragma: no cover
    main()
