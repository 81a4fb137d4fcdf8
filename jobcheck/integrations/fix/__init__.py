"""Automatic fixes, applied after analysis (`jobcheck check --fix`, `--diff`, the editor's code
actions). libcst is imported here (and by analysis.parse only for files the running Python cannot
parse), so that checking stays on the fast `ast` path.

JC501's fix inserts the five-questions section into the job's docstring (creating the docstring
when there is none), pre-filled with what the analysis knows and a `TODO` for each judgment; JC502
then reports the job until a person answers. Fixes keep formatting and comments, are idempotent (a
fixed job has a section, so JC501 no longer fires and a second run changes nothing), and are
checked before they are written: the new text must parse and must answer the reader with the
section, or the file is left alone.
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass, field
from pathlib import Path

from ...analysis.project import Project
from ...model import Finding

FIXABLE = frozenset({"JC501"})


@dataclass
class FileChange:
    display: str
    path: Path
    old_text: str
    new_text: str
    encoding: str
    fixed: list[Finding] = field(default_factory=list)

    def new_bytes(self) -> bytes:
        return self.new_text.encode(self.encoding)

    def diff(self) -> str:
        lines = difflib.unified_diff(
            self.old_text.splitlines(keepends=True), self.new_text.splitlines(keepends=True),
            fromfile=self.display, tofile=self.display,
        )
        return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)


@dataclass
class Plan:
    changes: list[FileChange]
    skipped: list[tuple[str, str]]  # (display path, why a fix was not made)

    @property
    def fixed(self) -> int:
        return sum(len(c.fixed) for c in self.changes)


def plan(findings: list[Finding], project: Project, section: str = "Reliability",
         paths: dict[str, Path] | None = None) -> Plan:
    """The changes that fix what can be fixed among `findings`, file by file (nothing written).
    `paths` maps display paths to files (default: the display path itself)."""
    from . import sourcefile

    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        if f.code in FIXABLE:
            by_file.setdefault(f.path, []).append(f)
    changes, skipped = [], []
    for display, group in sorted(by_file.items()):
        path = (paths or {}).get(display, Path(display))
        try:
            source = sourcefile.read(path)
        except sourcefile.EncodingNotKept as exc:
            skipped.append((display, str(exc)))
            continue
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError) as exc:
            skipped.append((display, f"cannot read: {exc}"))
            continue
        try:
            new_text, fixed = fix_text(source.text, group, project, section, refused := [])
            skipped.extend((display, why) for why in refused)
            if new_text != source.text:
                source.encode(new_text)  # fails early when the encoding cannot hold the section
        except FixError as exc:
            skipped.append((display, str(exc)))
            continue
        except UnicodeEncodeError as exc:
            skipped.append((display, f"the section cannot be written in {source.encoding}: {exc.reason}"))
            continue
        if fixed and new_text != source.text:
            changes.append(FileChange(display, path, source.text, new_text, source.encoding, fixed))
    return Plan(changes, skipped)


def write(changes: list[FileChange]) -> None:
    from .sourcefile import write_atomic

    for change in changes:
        write_atomic(change.path, change.new_bytes())


class FixError(Exception):
    """A file whose fixes could not be made safely; it is left as it is."""


def fix_text(text: str, findings: list[Finding], project: Project, section: str = "Reliability",
             refused: list[str] | None = None) -> tuple[str, list[Finding]]:
    """`text` with the fixes for `findings` (all in this file) applied, and the findings fixed.
    Why a fix could not be made is appended to `refused`."""
    from . import docstring
    from . import section as section_mod

    targets: dict[docstring.Target, Finding] = {}
    for f in findings:
        if f.code != "JC501":
            continue
        target = _section_target(project, f, section, section_mod)
        if target is not None and target not in targets:
            targets[target] = f
    if not targets:
        return text, []
    import libcst

    try:
        new_text, applied, not_applied = docstring.insert_sections(text, list(targets))
    except libcst.ParserSyntaxError as exc:  # syntax newer than libcst reads, or a changed file
        raise FixError(f"libcst cannot parse the file: {str(exc).splitlines()[0]}") from exc
    except Exception as exc:  # a bug in a fix must cost that file's fix, not the run
        raise FixError(f"internal error while fixing: {type(exc).__name__}: {exc}") from exc
    for target, finding in targets.items():
        why = not_applied.get(target)
        if why is None and target not in applied:
            why = "its definition is not where the analysis saw it (did the file change?)"
        if why is not None and refused is not None:
            refused.append(f"{finding.code} for job `{finding.job}`: {why}")
    if not applied:
        return text, []
    _verify(new_text, [t.qualname for t in applied], section)
    return new_text, [targets[t] for t in applied]


def _section_target(project: Project, finding: Finding, section: str, section_mod):
    from .docstring import Target

    site = project.jobs.get(finding.function or "")
    if site is None:
        site = next((s for s in project.jobs.values() if s.display == finding.job), None)
    if site is None:
        return None
    owner = site.doc_owner
    fn = project.functions.get(owner)
    if fn is not None:
        module, line, indent = project.function_module[owner].module, fn.line, fn.def_col
    else:
        cls = project.classes.get(owner)
        if cls is None:
            return None
        module, line, indent = project.module_of_class(cls).module, cls.line, cls.col - len("class ")
    if project.modules.get(module) is None or project.modules[module].path != finding.path:
        return None  # the finding is anchored in another file than the docstring's owner
    width = section_mod.WIDTH - indent - 4
    lines = section_mod.lines(project, site, section, "    ", width)
    return Target(owner[len(module) + 1:], line, tuple(lines))


def _verify(text: str, qualnames: list[str], section: str) -> None:
    """The fixed text must parse and each fixed owner must now have the section."""
    from ...analysis import fivequestions
    from ...analysis.parse import parse

    try:
        tree = parse(text)
    except SyntaxError as exc:  # pragma: no cover - a bug in the fix, caught before writing
        raise FixError(f"the fix would not parse ({exc.msg}); nothing written") from exc
    docs = _docstrings(tree)
    for q in qualnames:
        if not fivequestions.read(docs.get(q), section).has_section:
            raise FixError(f"the fix did not produce a readable section for {q}; nothing written")


def _docstrings(tree: ast.Module) -> dict[str, str | None]:
    out: dict[str, str | None] = {}

    def walk(body, prefix: str, in_function: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = f"{prefix}{node.name}"
                out.setdefault(q, ast.get_docstring(node, clean=False))
                is_fn = not isinstance(node, ast.ClassDef)
                walk(node.body, f"{q}.<locals>." if is_fn else f"{q}.", is_fn)
            else:
                for field_name in ("body", "orelse", "finalbody", "handlers", "cases"):
                    inner = getattr(node, field_name, None)
                    if isinstance(inner, list):
                        walk(inner, prefix, in_function)

    walk(tree.body, "", False)
    return out
