"""The command line: parses options, calls the api, prints, and sets the exit code. Nothing else.

Exit codes: 0 clean, 1 findings, 2 usage, configuration or internal error.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

import click

from . import __version__
from .output import FORMATS

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [c.strip().upper() for c in value.split(",") if c.strip()]


class _Commands(click.Group):
    """The runtime verifier's `lease` commands load only when asked for (fast start). An error
    nothing below caught is reported in one line and exits 2 (EXIT_ERROR), never 1: CI must tell
    a crash from findings. `JOBCHECK_DEBUG=1` (or `check --verbose`) adds the traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            # The reader went away (`jobcheck jobs | head`): stop quietly, as a Unix filter does.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_FINDINGS)
        except Exception as exc:
            from .model import Failure

            if os.environ.get("JOBCHECK_DEBUG"):
                traceback.print_exc()
            click.echo(f"jobcheck: internal error: {Failure.describe(exc)}. This is a bug in jobcheck; please report it "
                       "(JOBCHECK_DEBUG=1 prints the traceback)", err=True)
            sys.exit(EXIT_ERROR)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "lease"})

    def get_command(self, ctx: click.Context, name: str):
        if name == "lease":
            from .runtime.cli import runtime_cli

            return runtime_cli
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="jobcheck")
def main() -> None:
    """jobcheck: a linter for scheduled and background jobs."""


def _cache_options(command):
    """--no-cache, --cache-dir and --jobs: how summaries are had (`check`, `jobs`)."""
    command = click.option("--jobs", "-j", "jobs", type=click.IntRange(min=0), default=0,
                           help="Processes that summarise files on a cold run (default 0: one per core).")(command)
    command = click.option("--cache-dir", type=click.Path(file_okay=False), envvar="JOBCHECK_CACHE_DIR", show_envvar=True,
                           help="Where the cache lives (default: .jobcheck_cache beside the configuration file, "
                                "else in the current folder).")(command)
    return click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")(command)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", help="Comma-separated rule codes or prefixes to check (replaces the configured selection).")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to skip.")
@click.option("--extend-select", help="Comma-separated rule codes to add to the selection.")
@click.option("--output-format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Read configuration from this pyproject.toml.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--force-exclude", is_flag=True, help="Apply exclusions to paths given explicitly too (for pre-commit).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: when writing to a terminal).")
@click.option("--write-baseline", "write_baseline", type=click.Path(dir_okay=False),
              help="Record every current finding in this file and exit 0 (adopting jobcheck on legacy code).")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False),
              help="Report only findings that this baseline file does not record.")
@click.option("--fix", is_flag=True, help="Apply the automatic fixes (JC501: insert the five-questions section), then report what remains.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the automatic fixes as unified diffs and change nothing (exit 1 when there are any).")
@click.option("--list-jobs", "list_jobs", is_flag=True, help="Print the job inventory instead of findings (same as `jobcheck jobs`).")
@_cache_options
def check(paths, select, ignore, extend_select, output_format, config_path, exit_zero, force_exclude, color,
          write_baseline, baseline_path, fix, show_diff, list_jobs=False, no_cache=False, cache_dir=None, jobs=0) -> None:
    """Check PATHS (default: the current folder) for unsafe job code."""
    from . import config as config_mod
    from .cache import store as cache
    from .engine import cached_run, pipeline
    from .engine.fingerprint import repo_root
    from .integrations import baseline
    from .output import renderer
    from .output.progress import Progress

    paths = list(paths) or ["."]
    missing = [p for p in paths if not os.path.lexists(p)]  # a symlink loop exists: reported as unreadable
    if missing:
        click.echo(f"jobcheck: no such file or folder: {', '.join(missing)}", err=True)
        sys.exit(EXIT_ERROR)
    if list_jobs:
        _print_jobs(paths, config_path, output_format, color, force_exclude, no_cache, cache_dir, jobs)
        return
    try:
        start = Path(paths[0]) if Path(paths[0]).exists() else Path.cwd()
        cfg = config_mod.load(Path(config_path) if config_path else None, start=start)
        selection = pipeline.Selection(_codes(select), _codes(ignore), _codes(extend_select))
        from .ruledocs import known_codes

        for code in (selection.select or []) + (selection.ignore or []) + (selection.extend_select or []):
            if code != "ALL" and not any(k.startswith(code) for k in known_codes()):
                raise config_mod.ConfigError(f"unknown rule {code!r} on the command line")
        if write_baseline and baseline_path:
            raise click.UsageError("--write-baseline and --baseline cannot be combined")
        progress = Progress(sys.stderr) if sys.stderr.isatty() else None
        store = None if no_cache else cache.Cache(Path(cache_dir) if cache_dir else cache.default_dir(cfg.path))
        try:
            report = cached_run.check_paths(paths, cfg, selection, force_exclude=force_exclude, cache=store,
                                             workers=jobs or None, progress=progress.update if progress else None,
                                             reuse_findings=not (fix or show_diff), freeze=True)
        finally:
            if progress:
                progress.close()
    except config_mod.ConfigError as exc:
        click.echo(f"jobcheck: configuration error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    if fix or show_diff:
        report = _fix(report, paths, cfg, selection, force_exclude, show_diff, baseline_path)
    failed = report.failed  # decided before a baseline can hide it: JC002 is never recorded in one
    if write_baseline:
        count = baseline.write(Path(write_baseline), [f for f in report.findings if f.code != "JC002"])
        click.echo(f"jobcheck: wrote {count} finding{'s' if count != 1 else ''} to baseline {write_baseline}", err=True)
        sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)
    if baseline_path:
        try:
            new = baseline.filter_new(Path(baseline_path), report.findings)
        except baseline.BaselineError as exc:
            click.echo(f"jobcheck: {exc}", err=True)
            sys.exit(EXIT_ERROR)
        if len(new) < len(report.findings):
            click.echo(f"jobcheck: {len(report.findings) - len(new)} findings recorded in {baseline_path} not shown", err=True)
        report.findings = new
    render = renderer(output_format)
    use_color = sys.stdout.isatty() if color is None else color
    render(report, sys.stdout, color=use_color, root=repo_root(cfg.root))
    sys.stdout.flush()
    if failed:
        click.echo("jobcheck: jobcheck failed on part of the run (JC002); the other findings are reported", err=True)
        sys.exit(EXIT_ERROR)
    if report.findings and not exit_zero:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_CLEAN)


def _fix(report, paths, cfg, selection, force_exclude: bool, show_diff: bool, baseline_path):
    """Apply (or, with --diff, print) the fixes for the findings that would be reported, then
    analyse again so the output shows what remains. --diff exits here: 1 when there are changes."""
    from .engine import pipeline
    from .integrations import baseline, fix

    findings = report.findings
    if report.project is None:
        return report  # linking failed (JC002): nothing to fix from
    if baseline_path:
        try:
            findings = baseline.filter_new(Path(baseline_path), findings)
        except baseline.BaselineError as exc:
            click.echo(f"jobcheck: {exc}", err=True)
            sys.exit(EXIT_ERROR)
    plan = fix.plan(findings, report.project, cfg.docstring_section)
    for display, why in plan.skipped:
        click.echo(f"jobcheck: {display}: not fixed: {why}", err=True)
    if show_diff:
        for change in plan.changes:
            sys.stdout.write(change.diff())
        sys.stdout.flush()
        n = plan.fixed
        click.echo(f"jobcheck: would fix {n} finding{'s' if n != 1 else ''} in {len(plan.changes)} file{'s' if len(plan.changes) != 1 else ''}", err=True)
        sys.exit(EXIT_FINDINGS if plan.changes else EXIT_CLEAN)
    if not plan.changes:
        return report
    try:
        fix.write(plan.changes)
    except OSError as exc:
        click.echo(f"jobcheck: cannot write fixes: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    n = plan.fixed
    click.echo(f"jobcheck: fixed {n} finding{'s' if n != 1 else ''} in {len(plan.changes)} file{'s' if len(plan.changes) != 1 else ''}", err=True)
    return pipeline.check_paths(paths, cfg, selection, force_exclude=force_exclude)


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


@main.command()
def lsp() -> None:
    """Run the language server on stdin/stdout (needs the `lsp` extra: pip install 'jobcheck[lsp]')."""
    try:
        from .integrations.lsp.server import serve
    except ImportError as exc:
        click.echo(f"jobcheck: the language server needs pygls: pip install 'jobcheck[lsp]' ({exc})", err=True)
        sys.exit(EXIT_ERROR)
    serve()


@main.command("jobs")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--output-format", "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Read configuration from this pyproject.toml.")
@click.option("--force-exclude", is_flag=True, help="Apply exclusions to paths given explicitly too.")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: when writing to a terminal).")
@_cache_options
def jobs_cmd(paths, output_format, config_path, force_exclude, color, no_cache=False, cache_dir=None, jobs=0) -> None:
    """List every job entry point in PATHS: framework, trigger, retry settings and effects."""
    paths = list(paths) or ["."]
    missing = [p for p in paths if not os.path.lexists(p)]  # a symlink loop exists: reported as unreadable
    if missing:
        click.echo(f"jobcheck: no such file or folder: {', '.join(missing)}", err=True)
        sys.exit(EXIT_ERROR)
    _print_jobs(paths, config_path, output_format, color, force_exclude, no_cache, cache_dir, jobs)


def _print_jobs(paths, config_path, output_format: str, color, force_exclude: bool, no_cache: bool = False,
                cache_dir: str | None = None, jobs: int = 0) -> None:
    """The job inventory as text or JSON; exit 0 (2 on a configuration error). Summaries come
    from the cache and the process pool, as for `check`; the project is always linked."""
    from . import config as config_mod
    from .cache import store as cache
    from .engine import cached_run, pipeline
    from .output import inventory

    if output_format not in ("text", "json"):
        click.echo(f"jobcheck: the job inventory is printed as text or json, not {output_format}", err=True)
        sys.exit(EXIT_ERROR)
    try:
        cfg = config_mod.load(Path(config_path) if config_path else None, start=Path(paths[0]))
        store = None if no_cache else cache.Cache(Path(cache_dir) if cache_dir else cache.default_dir(cfg.path))
        report = cached_run.check_paths(paths, cfg, pipeline.Selection(select=[]), force_exclude=force_exclude,
                                         cache=store, workers=jobs or None, reuse_findings=False, freeze=True)
    except config_mod.ConfigError as exc:
        click.echo(f"jobcheck: configuration error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    checked = report.summaries[: report.files]  # the files asked for; the rest are imported context
    items = inventory.rows(report.project, {s.path for s in checked})
    if output_format == "json":
        click.echo(inventory.to_json(items, report.files, inventory.unanalysed(checked)))
    else:
        inventory.render_text(items, sys.stdout, color=sys.stdout.isatty() if color is None else color)
    sys.stdout.flush()
    sys.exit(EXIT_CLEAN)


if __name__ == "__main__":  # pragma: no cover
    main()
