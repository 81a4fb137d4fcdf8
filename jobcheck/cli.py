"""The command line: parses options, calls the api, prints, and sets the exit code. Nothing else.

Exit codes: 0 clean, 1 findings, 2 usage, configuration or internal error — and any other
failure: a report that cannot be written, an interruption. 1 means findings and nothing else.
"""

from __future__ import annotations

import os
import sys
import traceback
from contextlib import contextmanager
from pathlib import Path

import click

from . import __version__
from .output import FORMATS

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Commands(click.Group):
    """The runtime verifier's `lease` commands load only when asked for (fast start). An error
    nothing below caught is reported in one line and exits 2 (EXIT_ERROR), never 1, `--exit-zero`
    or not: CI must tell a crash from findings. `--verbose` (or `JOBCHECK_DEBUG=1`) adds the
    traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            _explain(ctx, "interrupted")  # click would call it Abort and exit 1: "findings"
        except BrokenPipeError:
            # The reader went away (`jobcheck jobs | head`): stop without a word, as a Unix filter
            # does, but not with 0 or 1: the report was not delivered.
            _silence_stdout()
            sys.exit(EXIT_ERROR)
        except OSError as exc:  # the system's refusal (a full disk, no permission), not a bug
            from .model import Failure

            _explain(ctx, f"error: {Failure.describe(exc)}")
        except Exception as exc:
            from .model import Failure

            _explain(ctx, f"internal error: {Failure.describe(exc)}. This is a bug in jobcheck; please report it")

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "lease"})

    def get_command(self, ctx: click.Context, name: str):
        if name == "lease":
            from .runtime.cli import runtime_cli

            return runtime_cli
        return super().get_command(ctx, name)


_VERBOSE = "jobcheck.verbose"  # ctx.meta is shared by the group's context and the command's


def _explain(ctx: click.Context, message: str) -> None:
    """The one line an uncaught error gets (the traceback too with --verbose or JOBCHECK_DEBUG=1),
    then exit 2."""
    if ctx.meta.get(_VERBOSE) or os.environ.get("JOBCHECK_DEBUG"):
        traceback.print_exc()
    click.echo(f"jobcheck: {message} (--verbose prints the traceback)", err=True)
    sys.exit(EXIT_ERROR)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises nothing more."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass


def _verbose_option(command):
    def remember(ctx: click.Context, _param, value: bool) -> None:
        if value:
            ctx.meta[_VERBOSE] = True

    return click.option("--verbose", "-v", is_flag=True, expose_value=False, is_eager=True, callback=remember,
                        help="On an internal error, print the traceback (as JOBCHECK_DEBUG=1 does).")(command)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="jobcheck")
@_verbose_option
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
@click.option("--output-file", "-o", "output_file", type=click.Path(dir_okay=False),
              help="Write the report to this file (atomically) instead of standard output.")
@click.option("--statistics", is_flag=True, help="Print how many findings each rule has instead of the findings "
                                                 "(text, concise or json).")
@click.option("--quiet", "-q", is_flag=True, help="Print the findings only: no summary, no notes on stderr.")
@click.option("--stdin-filename", type=click.Path(dir_okay=False),
              help="Check the text on standard input (PATHS `-`, or none) as this file: reported under this path, "
                   "configured from there. With --fix, the fixed text is printed and the report goes to stderr.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Read configuration from this pyproject.toml.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings (never on an error).")
@click.option("--force-exclude", is_flag=True, help="Apply exclusions to paths given explicitly too (for pre-commit).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: when writing to a terminal).")
@click.option("--write-baseline", "write_baseline", type=click.Path(dir_okay=False),
              help="Record every current finding in this file and exit 0 (adopting jobcheck on legacy code).")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False),
              help="Report only findings that this baseline file does not record.")
@click.option("--fix", is_flag=True, help="Apply the automatic fixes (JC501: insert the five-questions section), then report what remains.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the automatic fixes as unified diffs and change nothing (exit 1 when there are any).")
@click.option("--list-jobs", "list_jobs", is_flag=True, help="Print the job inventory instead of findings (same as `jobcheck jobs`).")
@_verbose_option
@_cache_options
def check(paths, select, ignore, extend_select, output_format, output_file, statistics, quiet, stdin_filename,
          config_path, exit_zero, force_exclude, color, write_baseline, baseline_path, fix, show_diff,
          list_jobs=False, no_cache=False, cache_dir=None, jobs=0) -> None:
    """Check PATHS (default: the current folder) for unsafe job code; `-` reads standard input."""
    from . import config as config_mod
    from .engine import pipeline
    from .output import statistics as statistics_mod

    paths = list(paths)
    from_stdin = paths == ["-"] or (not paths and stdin_filename is not None)
    if "-" in paths and not from_stdin:
        raise click.UsageError("`-` (standard input) cannot be checked together with other paths")
    if stdin_filename is not None and not from_stdin:
        raise click.UsageError("--stdin-filename names standard input: give no PATHS, or `-`")
    if from_stdin and list_jobs:
        raise click.UsageError("--list-jobs lists the jobs of files, not of standard input")
    if statistics and output_format not in statistics_mod.FORMATS:
        raise click.UsageError(f"--statistics prints {', '.join(statistics_mod.FORMATS)}, not {output_format}")
    if write_baseline and baseline_path:
        raise click.UsageError("--write-baseline and --baseline cannot be combined")
    paths = paths or ["."]
    missing = [p for p in paths if not from_stdin and not os.path.lexists(p)]  # a symlink loop exists: reported as unreadable
    if missing:
        click.echo(f"jobcheck: no such file or folder: {', '.join(missing)}", err=True)
        sys.exit(EXIT_ERROR)
    if list_jobs:
        _print_jobs(paths, config_path, output_format, color, force_exclude, no_cache, cache_dir, jobs, output_file)
        return
    note = (lambda message: None) if quiet else (lambda message: click.echo(f"jobcheck: {message}", err=True))
    try:
        selection = _selection(select, ignore, extend_select)
        if from_stdin:
            report, cfg, sources, to_stderr = _check_stdin(stdin_filename, config_path, selection, force_exclude,
                                                          fix, show_diff, baseline_path, note)
        else:
            start = Path(paths[0]) if Path(paths[0]).exists() else Path.cwd()
            cfg = config_mod.load(Path(config_path) if config_path else None, start=start)
            report = _check_files(paths, cfg, selection, force_exclude, fix or show_diff, no_cache, cache_dir, jobs)
            sources, to_stderr = None, False
    except config_mod.ConfigError as exc:
        click.echo(f"jobcheck: configuration error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    if (fix or show_diff) and not from_stdin:
        report = _fix(report, paths, cfg, selection, force_exclude, show_diff, baseline_path, note)
    failed = report.failed  # decided before a baseline can hide it: JC002 is never recorded in one
    if write_baseline:
        from .integrations import baseline

        try:
            count = baseline.write(Path(write_baseline), [f for f in report.findings if f.code != "JC002"])
        except baseline.BaselineError as exc:
            click.echo(f"jobcheck: {exc}", err=True)
            sys.exit(EXIT_ERROR)
        note(f"wrote {count} finding{'s' if count != 1 else ''} to baseline {write_baseline}")
        sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)
    if baseline_path:
        new = _new_findings(baseline_path, report.findings)
        if len(new) < len(report.findings):
            note(f"{len(report.findings) - len(new)} findings recorded in {baseline_path} not shown")
        report.findings = new
    _write_report(report, cfg, output_format, output_file, color, sources, quiet, statistics, to_stderr)
    if failed:
        click.echo("jobcheck: jobcheck failed on part of the run (JC002); the other findings are reported", err=True)
        sys.exit(EXIT_ERROR)
    if report.findings and not exit_zero:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_CLEAN)


def _selection(select, ignore, extend_select):
    from .config import ConfigError, command_line_codes
    from .engine import pipeline
    from .ruledocs import known_codes

    selection = pipeline.Selection(command_line_codes(select, "--select"), command_line_codes(ignore, "--ignore"),
                                   command_line_codes(extend_select, "--extend-select"))
    for code in (selection.select or []) + (selection.ignore or []) + (selection.extend_select or []):
        if code != "ALL" and not any(k.startswith(code) for k in known_codes()):
            raise ConfigError(f"unknown rule {code!r} on the command line")
    return selection


def _check_files(paths, cfg, selection, force_exclude: bool, fixing: bool, no_cache: bool, cache_dir, jobs: int):
    from .cache import store as cache
    from .engine import cached_run
    from .output.progress import Progress

    progress = Progress(sys.stderr) if _is_terminal(sys.stderr) else None
    store = None if no_cache else cache.Cache(Path(cache_dir) if cache_dir else cache.default_dir(cfg.path))
    try:
        return cached_run.check_paths(paths, cfg, selection, force_exclude=force_exclude, cache=store,
                                      workers=jobs or None, progress=progress.update if progress else None,
                                      reuse_findings=not fixing, freeze=True)
    finally:
        if progress:
            progress.close()


def _check_stdin(stdin_filename, config_path, selection, force_exclude: bool, fix: bool, show_diff: bool,
                 baseline_path, note):
    """Check standard input as the file `stdin_filename` (as `./stdin.py` reported as `-` when not
    named). With --diff, print the fix's diff and exit here; with --fix, print the fixed text (the
    text as it came when nothing is fixed), and the report goes to stderr. Returns (report, config,
    sources for the report, whether the report goes to stderr)."""
    from . import config as config_mod
    from .engine import document

    display = stdin_filename or "-"
    path = Path(os.path.abspath(stdin_filename or "stdin.py"))
    start = next(folder for folder in path.parents if folder.is_dir())
    cfg = config_mod.load(Path(config_path) if config_path else None, start=start)
    if sys.stdin is None:
        raise click.UsageError("standard input is closed")
    data = sys.stdin.buffer.read()
    report = document.check_document(data, path, display, cfg, selection, force_exclude)
    decoded = document.text_of(data)
    sources = {display: decoded[0]} if decoded else None
    if not (fix or show_diff):
        return report, cfg, sources, False
    new_data = data
    if decoded is not None and report.project is not None:
        text, encoding = decoded
        new_text = _fixed_text(text, report, display, cfg, baseline_path, note)
        if show_diff:
            from .integrations.fix import FileChange

            change = FileChange(display, path, text, new_text, encoding)
            with _writing_to("standard output"):
                sys.stdout.write(change.diff())
                sys.stdout.flush()
            sys.exit(EXIT_FINDINGS if new_text != text else EXIT_CLEAN)
        if new_text != text:
            new_data = new_text.encode(encoding)
            report = document.check_document(new_data, path, display, cfg, selection, force_exclude)
            sources = {display: new_text}
    elif show_diff:
        sys.exit(EXIT_CLEAN)
    with _writing_to("standard output"):
        sys.stdout.buffer.write(new_data)
        sys.stdout.flush()
    return report, cfg, sources, True


def _fixed_text(text: str, report, display: str, cfg, baseline_path, note) -> str:
    from .integrations import fix

    findings = _new_findings(baseline_path, report.findings) if baseline_path else report.findings
    refused: list[str] = []
    try:
        new_text, fixed = fix.fix_text(text, findings, report.project, cfg.docstring_section, refused)
    except fix.FixError as exc:
        refused.append(str(exc))
        new_text, fixed = text, []
    for why in refused:
        click.echo(f"jobcheck: {display}: not fixed: {why}", err=True)
    if fixed:
        note(f"fixed {len(fixed)} finding{'s' if len(fixed) != 1 else ''} in {display}")
    return new_text


def _new_findings(baseline_path, findings):
    """The findings the baseline does not record; a baseline that cannot be read exits 2."""
    from .integrations import baseline

    try:
        return baseline.filter_new(Path(baseline_path), findings)
    except baseline.BaselineError as exc:
        click.echo(f"jobcheck: {exc}", err=True)
        sys.exit(EXIT_ERROR)


def _write_report(report, cfg, output_format: str, output_file, color, sources, quiet: bool, statistics: bool,
                  to_stderr: bool) -> None:
    """The report (or, with --statistics, the counts) on stdout, on stderr, or in --output-file."""
    from .engine.fingerprint import repo_root
    from .output import renderer
    from .output import statistics as statistics_mod

    stream = sys.stderr if to_stderr else sys.stdout
    use_color = color if color is not None else output_file is None and _is_terminal(stream)
    with _report_stream(output_file, stream) as out:
        if statistics:
            statistics_mod.render(report, out, output_format, color=use_color)
        else:
            renderer(output_format)(report, out, color=use_color, root=repo_root(cfg.root), sources=sources,
                                    summary=not quiet)


@contextmanager
def _report_stream(output_file, stream):
    """The stream a report is written to: `stream`, or one whose text replaces `output_file`
    once the report is whole (atomically, as fixes are written: a reader never sees half a
    report, and a run that fails leaves the previous one). A report that cannot be written
    exits 2, in one line."""
    if output_file is None:
        with _writing_to("standard output" if stream is sys.stdout else "standard error"):
            if stream is None:
                raise OSError("it is closed")
            yield stream
            stream.flush()
        return
    import io

    report = io.StringIO()
    yield report
    with _writing_to(output_file):
        from .integrations.fix.sourcefile import write_atomic

        target = Path(output_file)
        if not os.path.lexists(target):
            target.touch()  # a new file gets the usual mode, which the replacement keeps
        # A file name that is not UTF-8 is written as the bytes it was, as on a UTF-8 terminal.
        write_atomic(target, report.getvalue().encode("utf-8", "surrogateescape"))


@contextmanager
def _writing_to(where: str):
    try:
        yield
    except BrokenPipeError:
        raise  # the reader went away: the group stops without a word
    except OSError as exc:
        click.echo(f"jobcheck: cannot write the report to {where}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_ERROR)


def _is_terminal(stream) -> bool:
    return stream is not None and stream.isatty()


def _fix(report, paths, cfg, selection, force_exclude: bool, show_diff: bool, baseline_path, note):
    """Apply (or, with --diff, print) the fixes for the findings that would be reported, then
    analyse again so the output shows what remains. --diff exits here: 1 when there are changes."""
    from .engine import pipeline
    from .integrations import fix

    if report.project is None:
        return report  # linking failed (JC002): nothing to fix from
    findings = _new_findings(baseline_path, report.findings) if baseline_path else report.findings
    plan = fix.plan(findings, report.project, cfg.docstring_section)
    for display, why in plan.skipped:
        click.echo(f"jobcheck: {display}: not fixed: {why}", err=True)
    n, files = plan.fixed, f"{len(plan.changes)} file{'s' if len(plan.changes) != 1 else ''}"
    if show_diff:
        with _writing_to("standard output"):
            for change in plan.changes:
                sys.stdout.write(change.diff())
            sys.stdout.flush()
        note(f"would fix {n} finding{'s' if n != 1 else ''} in {files}")
        sys.exit(EXIT_FINDINGS if plan.changes else EXIT_CLEAN)
    if not plan.changes:
        return report
    try:
        fix.write(plan.changes)
    except OSError as exc:
        click.echo(f"jobcheck: cannot write fixes: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    note(f"fixed {n} finding{'s' if n != 1 else ''} in {files}")
    return pipeline.check_paths(paths, cfg, selection, force_exclude=force_exclude)


@main.command()
@click.argument("rule")
@_verbose_option
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

    with _report_stream(None, sys.stdout) as out:
        Console(file=out).print(Markdown(f"# {info.code} {info.name}\n\n*{info.summary}* — severity {info.severity.value}, "
                                         f"answers: {info.question or 'n/a'}\n\n{body}"))


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@_verbose_option
def rules_cmd(fmt: str) -> None:
    """List the rule catalog."""
    from .ruledocs import rules

    catalog = rules()
    if fmt == "json":
        import json

        with _report_stream(None, sys.stdout) as out:
            out.write(json.dumps([
                {"code": r.code, "name": r.name, "summary": r.summary, "severity": r.severity.value,
                 "question": r.question, "default": r.default, "precision": r.precision}
                for r in catalog.values()
            ], indent=2) + "\n")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="jobcheck rules")
    for column in ("code", "name", "question", "severity", "default", "summary"):
        table.add_column(column)
    for r in catalog.values():
        table.add_row(r.code, r.name, r.question, r.severity.value, "yes" if r.default else "no", r.summary)
    with _report_stream(None, sys.stdout) as out:
        Console(file=out).print(table)


@main.command()
@_verbose_option
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
@click.option("--output-file", "-o", "output_file", type=click.Path(dir_okay=False),
              help="Write the inventory to this file (atomically) instead of standard output.")
@_verbose_option
@_cache_options
def jobs_cmd(paths, output_format, config_path, force_exclude, color, output_file, no_cache=False, cache_dir=None,
             jobs=0) -> None:
    """List every job entry point in PATHS: framework, trigger, retry settings and effects."""
    paths = list(paths) or ["."]
    missing = [p for p in paths if not os.path.lexists(p)]  # a symlink loop exists: reported as unreadable
    if missing:
        click.echo(f"jobcheck: no such file or folder: {', '.join(missing)}", err=True)
        sys.exit(EXIT_ERROR)
    _print_jobs(paths, config_path, output_format, color, force_exclude, no_cache, cache_dir, jobs, output_file)


def _print_jobs(paths, config_path, output_format: str, color, force_exclude: bool, no_cache: bool = False,
                cache_dir: str | None = None, jobs: int = 0, output_file: str | None = None) -> None:
    """The job inventory as text or JSON; exit 0 (2 on a configuration error, or when a part of
    jobcheck failed and the jobs it finds are missing: named on stderr). Summaries come from the
    cache and the process pool, as for `check`; the project is always linked."""
    from . import config as config_mod
    from .cache import store as cache
    from .engine import cached_run, pipeline
    from .model import Failure
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
    items = inventory.rows(report.project, {s.path for s in checked}) if report.project is not None else []
    # What failed before the jobs were listed (a file's summary, linking: JC002, always reported),
    # then while they were found (a framework's scan).
    failures = [Failure(f.path, f.message) for f in report.findings if f.code == "JC002"]
    failures += report.project.failures if report.project is not None else []
    with _report_stream(output_file, sys.stdout) as out:
        if output_format == "json":
            out.write(inventory.to_json(items, report.files, inventory.unanalysed(checked), failures) + "\n")
        else:
            use_color = color if color is not None else output_file is None and _is_terminal(out)
            inventory.render_text(items, out, color=use_color)
    for failure in failures:
        click.echo(f"jobcheck: internal error in {failure.where} ({failure.error}): the jobs it finds are missing",
                   err=True)
    sys.exit(EXIT_ERROR if failures else EXIT_CLEAN)


if __name__ == "__main__":  # pragma: no cover
    main()
