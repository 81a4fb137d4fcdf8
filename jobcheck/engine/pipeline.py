"""The library interface shared by the CLI, the language server and the tests.

    report = check_paths(["src/"], config)      # files on disk
    report = check_sources({"a.py": text}, ...)  # text from an editor or a test

Both run the same two phases: summarise each file (cached, parallel), then link the project
and run the selected checks.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..analysis import context, files, source, suppress
from ..analysis.schedule_text import Schedules, read_schedules
from ..analysis.summary import ModuleSummary
from ..config import Config, selected_codes
from ..model import Confidence, Failure, Finding, Severity, Span

if TYPE_CHECKING:
    from ..analysis.project import Project

# The project phase (checks, frameworks, catalogs) is imported when a run needs it: a warm run
# that reads its findings back from the cache never does.


@dataclass
class Report:
    findings: list[Finding]
    files: int
    project: Project | None  # None when read back from the cache, or when linking failed
    summaries: list[ModuleSummary] = field(default_factory=list)
    # The findings were read back from the cache's record of the same run (nothing changed).
    reused: bool = False

    @property
    def counts(self) -> Counter:
        return Counter(f.code for f in self.findings)

    @property
    def failed(self) -> bool:
        """Did jobcheck fail on some part of the run (JC002)?"""
        return any(f.code == "JC002" for f in self.findings)


@dataclass(frozen=True)
class Selection:
    select: list[str] | None = None
    ignore: list[str] | None = None
    extend_select: list[str] | None = None


def check_paths(paths: list[str], config: Config | None = None, selection: Selection = Selection(),
                summarizer=None, force_exclude: bool = False, folders: set[str] | None = None,
                planned: list[tuple[Path, str, str, bool]] | None = None, listed_by: list[str] | None = None,
                probed: dict | None = None) -> Report:
    """Check every Python file under `paths` (`planned`: what `plan_modules` gave for them, if
    the caller has already listed them, `folders` included). `summarizer` maps [(path, display, module, is_pkg)]
    to summaries (the cache and the process pool plug in here; one with a `close()` is closed once
    every file is summarised, before linking); default: one by one. `folders`,
    if given, collects every folder listed (to find files, to resolve imports); `listed_by`, the
    other files the listing depends on (ignore files, and the files refused unread); `probed`,
    every `__init__.py` looked for in naming modules, and whether it was there."""
    config = config or Config()
    refused: list[files.Refused] = []
    texts: list[tuple[Path, str]] = []
    if planned is None:
        found = files.discover(paths, config.root, config.exclude + config.extend_exclude, force_exclude, folders,
                               respect_gitignore=config.respect_gitignore, max_file_size=config.max_file_size,
                               refused=refused, consulted=listed_by, texts=texts)
        planned = plan_modules(found, folders, probed)
    if listed_by is not None:
        listed_by.extend(str(path) for path, _ in texts)  # read: a run is as old as they are
    schedules = read_schedules(texts)
    summarize = summarizer or (lambda batch: [source.summarize_one(job) for job in batch])
    summaries = summarize(planned) + [_refused_summary(r) for r in refused]
    if listed_by is not None:
        listed_by.extend(r.path for r in refused)
    absolute = {display: path for path, display, _, _ in planned}
    extra = context.load(summaries, import_roots(planned, config), summarize, folders=folders)
    release = getattr(summarize, "close", None)
    if release is not None:
        release()  # worker processes are idle from here on: free their memory before linking
    for summary in summaries + extra:
        summary.uses = {}  # only context loading reads it: a tenth of a summary's memory
    return analyse(summaries + extra, config, selection, absolute, report_paths={s.path for s in summaries},
                   report_modules={s.module for s in summaries}, schedules=schedules,
                   roots=[p for p in paths if os.path.isdir(p)])


def _refused_summary(refused: files.Refused) -> ModuleSummary:
    """A file or folder not read: reported as JC000 (with no line of it: it was never read)."""
    module, _ = source.module_name(Path(refused.path))
    summary = ModuleSummary(path=refused.display, module=module)
    summary.error, summary.error_kind = refused.reason, "unreadable-file"
    return summary


def import_roots(planned: list[tuple[Path, str, str, bool]], config: Config) -> list[Path]:
    """Where imports of the analysed files are looked up: their package roots, then the
    configuration's folder and its src/."""
    found = dict.fromkeys(context.package_root(path, module, is_pkg) for path, _, module, is_pkg in planned)
    roots = [Path(root) for root in found]
    for root in (config.root.resolve(), config.root.resolve() / "src"):
        if root not in roots and root.is_dir():
            roots.append(root)
    return roots


def plan_modules(found: list[tuple[Path, str]], folders: set[str] | None = None,
                 probed: dict | None = None) -> list[tuple[Path, str, str, bool]]:
    """(path, display, module, is_package) per file. Files that would share a module name (two
    scripts both called tasks.py outside packages) are named by their path instead, so both are
    analysed. `folders`, if given, collects the folders named as packages, and `probed` every
    `__init__.py` looked for (whether it was there): a file's name depends on them."""
    packages: dict = {}
    named = [(path, display, *source.module_name(path, packages, probed)) for path, display in found]
    if folders is not None:
        # The files' folders, the packages around them and the folder holding the outermost one
        # (where a module it imports may appear), not every folder looked at on the way up.
        folders.update(os.path.dirname(os.path.abspath(path)) for path, _ in found)
        folders.update(folder for folder, name in packages.items() if name)
        folders.update(os.path.dirname(folder) for folder, name in packages.items() if name and "." not in name)
    counts = Counter(m for _, _, m, _ in named)
    out = []
    for path, display, module, is_pkg in named:
        if counts[module] > 1:
            stem = Path(display).with_suffix("").as_posix().strip("./").replace("/", ".").replace("-", "_")
            module = stem if not is_pkg else stem.removesuffix(".__init__")
        out.append((path, display, module, is_pkg))
    return out


def check_sources(sources: dict[str, str], config: Config | None = None, selection: Selection = Selection(),
                  modules: dict[str, str] | None = None) -> Report:
    """Check in-memory sources (display path -> text); `modules` may name their modules."""
    config = config or Config()
    summaries = []
    for display, text in sources.items():
        module = (modules or {}).get(display) or Path(display).stem
        summaries.append(source.summarize_source(text, display, module, display.endswith("__init__.py")))
    return analyse(summaries, config, selection, {}, sources)


def build_project(summaries: list[ModuleSummary], config: Config, frameworks: list,
                  schedules: Schedules | None = None, roots: list | None = None) -> Project:
    """The linked project; `roots`: the folders analysed, besides the configuration's
    (`Program.the_applications`)."""
    from ..analysis.project import Project
    from ..effects.classify import Catalog

    return Project(summaries, Catalog(config.effects, config.guards), frameworks, config.entry_points, schedules,
                   roots=[*(roots or ()), config.root])


def analyse(summaries: list[ModuleSummary], config: Config, selection: Selection = Selection(),
            absolute: dict[str, Path] | None = None, sources: dict[str, str] | None = None,
            report_paths: set[str] | None = None, report_modules: set[str] | None = None,
            schedules: Schedules | None = None, roots: list | None = None) -> Report:
    """Link the summaries, run the selected checks, drop what is suppressed. `sources` are
    in-memory texts (an editor's buffers) that take precedence over the files on disk.
    `report_paths`: report findings only in these files (the others are context);
    `report_modules`: and only of these modules (a given file can also be read as context under
    another name, as a script's sibling is: its findings are the given module's); `schedules`: the
    crontab lines and console scripts found beside the code (`analysis.schedule_text`); `roots`: the
    folders analysed, beside the configuration's (what is beside the application is told below them)."""
    from ..frameworks import all_frameworks
    from ..ruledocs import rules

    rule_info = rules()
    frameworks = all_frameworks(config)  # an unknown framework named is an error before anything runs
    reported = summaries
    if report_paths is not None:
        reported = [s for s in reported if s.path in report_paths]
    if report_modules is not None:
        reported = [s for s in reported if s.module in report_modules]
    failures: list[Failure] = []
    findings: list[Finding] = []
    project: Project | None = None
    try:
        project = build_project(summaries, config, frameworks, schedules, roots)
    except Exception as exc:  # linking failed: no check can run; what each file says still holds
        failures.append(Failure("linking the project", Failure.describe(exc)))
    if project is not None:
        findings = check_project(project, config, selection, rule_info, failures)
        try:
            findings = kept_findings(findings, project, config, {s.path: s for s in summaries}, absolute or {},
                                     sources, report_paths, report_modules)
        except Exception as exc:
            failures.append(Failure("applying suppressions", Failure.describe(exc)))
            findings = []
    findings.extend(_internal_errors(failures, rule_info))
    findings.extend(_unanalysable(reported, rule_info))
    findings.extend(_bare_suppressions(reported, rule_info))
    findings = sorted(set(findings), key=Finding.sort_key)
    return Report(findings=findings, files=len(reported), project=project, summaries=summaries)


def check_project(project: Project, config: Config, selection: Selection, rule_info: dict,
                  failures: list[Failure]) -> list[Finding]:
    """The selected checks' findings on a linked project. A check that fails keeps the findings
    it made before failing, and its failure is added to `failures`, as are the frameworks'
    (`Project.failures`)."""
    from ..checks import all_checks
    from ..checks.context import CheckContext

    selected = selected_codes(config, rule_info, selection.select, selection.ignore, selection.extend_select)
    ctx = CheckContext(project, rule_info, config.docstring_section)
    findings: list[Finding] = []
    for check in all_checks():
        if not selected.intersection(check.CODES):
            continue
        ctx.current = None
        try:
            for f in check.run(ctx):
                if f.code in selected:
                    findings.append(f)
        except Exception as exc:
            fn = project.functions.get(ctx.current or "")
            where = f"rule {'/'.join(sorted(check.CODES))}" + (f" checking {ctx.current}" if ctx.current else "")
            path = project.function_module[fn.qualname].path if fn is not None else None
            failures.append(Failure(where, Failure.describe(exc), path, fn.line if fn is not None else 1))
    failures.extend(project.failures)
    try:
        return [_with_jobs(f, project) for f in findings]
    except Exception as exc:  # the findings stand without the list
        failures.append(Failure("listing the jobs of findings", Failure.describe(exc)))
        return findings


def _with_jobs(finding: Finding, project: Project) -> Finding:
    """The finding with every job that runs its code, the one it names first."""
    if not finding.function or finding.function not in project.job_context:
        return replace(finding, jobs=(finding.job,)) if finding.job else finding
    names = [project.jobs[q].display for q in project.jobs_running(finding.function)]
    first = [finding.job] if finding.job else []
    return replace(finding, jobs=tuple(first + [n for n in dict.fromkeys(names) if n != finding.job]))


def kept_findings(findings: list[Finding], project: Project, config: Config, by_path: dict, absolute: dict,
                  sources: dict[str, str] | None, report_paths: set[str] | None, report_modules: set[str] | None) -> list[Finding]:
    """The checks' findings that are reported: in the files reported on, of their modules, not
    suppressed (`by_path`: display path -> summary, for its suppressions), columns in characters."""
    if report_paths is not None:
        findings = [f for f in findings if f.path in report_paths]
    if report_modules is not None:
        # A finding belongs to its function's module (one without a function, to its file).
        findings = [f for f in findings if (m := project.function_module.get(f.function or "")) is None
                    or m.module in report_modules]
    findings = _drop_suppressed(findings, project, by_path, config, absolute)
    return _character_columns(findings, sources)


def _drop_suppressed(findings: list[Finding], project: Project, by_path: dict, config: Config, absolute: dict) -> list[Finding]:
    job_lines: dict[str, tuple[str, int]] = {site.display: (site.path, site.anchor.line) for site in project.jobs.values()}
    kept = []
    ignored_cache: dict[str, set[str]] = {}
    for f in findings:
        if config.per_file_ignores:
            if f.path not in ignored_cache:
                ignored_cache[f.path] = files.per_file_ignored(f.path, absolute.get(f.path, Path(f.path)), config.root, config.per_file_ignores)
            if any(f.code.startswith(c) for c in ignored_cache[f.path]):
                continue
        summary = by_path.get(f.path)
        sup = summary.suppressions if summary is not None else {}
        if sup and suppress.covers(sup, f.code, f.span.line, f.span.end_line):
            continue
        if f.job in job_lines:
            path, line = job_lines[f.job]
            job_sup = by_path[path].suppressions if path in by_path else {}
            if job_sup and suppress.covers(job_sup, f.code, line, line):
                continue
        kept.append(f)
    return kept


def _character_columns(findings: list[Finding], sources: dict[str, str] | None) -> list[Finding]:
    """`ast` counts columns in UTF-8 bytes; findings count characters, as editors and people do.
    Only lines with non-ASCII text differ, so only those are read."""
    from dataclasses import replace

    from .fingerprint import SourceLines

    lines = SourceLines(sources, keep=1)
    out = []
    for f in sorted(findings, key=lambda f: f.path):  # file by file: one file's text at a time
        start, end = lines.line(f.path, f.span.line), lines.line(f.path, f.span.end_line)
        if start.isascii() and end.isascii():
            out.append(f)
            continue
        span = Span(f.span.line, _chars(start, f.span.column), f.span.end_line, _chars(end, f.span.end_column))
        out.append(replace(f, span=span))
    return out


def _chars(text: str, byte_column: int) -> int:
    return len(text.encode("utf-8")[: max(0, byte_column - 1)].decode("utf-8", "replace")) + 1


def _internal_errors(failures: list[Failure], rule_info: dict) -> list[Finding]:
    info = rule_info["JC002"]
    return [Finding(
        code="JC002", name=info.name, path=f.path or ".", span=Span(f.line, 1, f.line, 1),
        message=f"jobcheck failed in {f.where} ({f.error}); findings that depend on it may be missing, the others "
                "are reported. This is a bug in jobcheck: please report it",
        severity=Severity.ERROR, confidence=Confidence.HIGH,
    ) for f in dict.fromkeys(failures)]


def _unanalysable(summaries: list[ModuleSummary], rule_info: dict) -> list[Finding]:
    out = []
    info = rule_info["JC000"]
    for s in summaries:
        if s.error is None:
            continue
        if s.error_kind == "internal-error":
            out.append(Finding(
                code="JC002", name=rule_info["JC002"].name, path=s.path, span=Span(1, 1, 1, 1),
                message=f"jobcheck failed summarising this file ({s.error}); the file is not analysed, the others "
                        "are. This is a bug in jobcheck: please report it",
                severity=Severity.ERROR, confidence=Confidence.HIGH,
            ))
            continue
        out.append(Finding(
            code="JC000", name=s.error_kind or info.name, path=s.path,
            span=Span(s.error_line, s.error_col, s.error_line, s.error_col), message=s.error,
            severity=Severity.ERROR, confidence=Confidence.HIGH,
        ))
    return out


def _bare_suppressions(summaries: list[ModuleSummary], rule_info: dict) -> list[Finding]:
    out = []
    info = rule_info["JC001"]
    for s in summaries:
        for line in suppress.bare_lines(s.suppressions):
            out.append(Finding(
                code="JC001", name=info.name, path=s.path, span=Span(line, 1, line, 1),
                message="`# jobcheck: ignore` without codes suppresses nothing: name the rules, e.g. `# jobcheck: ignore[JC201]`",
                severity=info.severity, confidence=Confidence.HIGH,
            ))
    return out
