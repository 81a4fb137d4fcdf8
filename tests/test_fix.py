"""`jobcheck check --fix` / `--diff` end to end on testdata/fix (expected `*.fixed.py` beside each
input), run twice; the pieces underneath: the section's text, suppression comments, and writing
files back in their own encoding, newlines and mode, atomically."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from jobcheck import api
from jobcheck.analysis import fivequestions
from jobcheck.config import Config
from jobcheck.integrations import fix
from jobcheck.integrations.fix import sourcefile, suppression

from .testdata_support import TESTDATA

FIX_DATA = TESTDATA / "fix"
CASES = sorted(p.name for p in FIX_DATA.iterdir() if p.is_dir() or not p.name.endswith(".fixed.py"))


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jobcheck.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def copy_case(name: str, tmp_path: Path) -> Path:
    source = FIX_DATA / name
    if source.is_dir():
        shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("*.fixed.py"))
    else:
        shutil.copy(source, tmp_path / name)
    return tmp_path / name


def expected_files(name: str, copied: Path) -> dict[Path, bytes]:
    """Every Python file of the case -> the bytes it must have after --fix."""
    source = FIX_DATA / name
    inputs = [source] if source.is_file() else sorted(p for p in source.rglob("*.py") if not p.name.endswith(".fixed.py"))
    out = {}
    for p in inputs:
        fixed = p.with_name(p.name.removesuffix(".py") + ".fixed.py")
        target = copied if source.is_file() else copied / p.relative_to(source)
        out[target] = (fixed if fixed.exists() else p).read_bytes()
    return out


@pytest.mark.parametrize("name", CASES)
def test_fix_gives_the_expected_files_and_a_second_run_changes_nothing(name: str, tmp_path: Path) -> None:
    copied = copy_case(name, tmp_path)
    wanted = expected_files(name, copied)
    assert any(wanted[p] != p.read_bytes() for p in wanted), "the case has nothing to fix"

    first = run(["check", "--fix", "--output-format", "json", name], tmp_path)
    assert first.returncode == 1, first.stderr  # the placeholders (JC502) remain to be answered
    for path, content in wanted.items():
        assert path.read_bytes().decode() == content.decode(), f"{path.name} differs from its .fixed.py"
    assert "jobcheck: fixed" in first.stderr

    remaining = json.loads(first.stdout)
    fixed_jobs = {f["job"] for f in remaining if f["code"] == "JC502"}
    assert fixed_jobs, "a fixed job must be reported by JC502 until its TODOs are answered"
    assert all("placeholder answers: Runs twice, Overlaps, Dies mid-run, Retries, Idempotent" in f["message"]
               for f in remaining if f["code"] == "JC502")
    unfixable = [f for f in remaining if f["code"] == "JC501"]
    assert all(f"not fixed: JC501 for job `{f['job']}`" in first.stderr for f in unfixable)

    second = run(["check", "--fix", "--output-format", "json", name], tmp_path)
    for path, content in wanted.items():
        assert path.read_bytes() == content
    assert "jobcheck: fixed" not in second.stderr
    assert json.loads(second.stdout) == remaining
    assert not list(tmp_path.rglob("*.jobcheck-tmp")), "no temporary file is left behind"


def test_diff_prints_the_fix_and_writes_nothing(tmp_path: Path) -> None:
    copied = copy_case("functions.py", tmp_path)
    before = copied.read_bytes()
    result = run(["check", "--diff", "functions.py"], tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("--- functions.py\n+++ functions.py\n@@ ")
    assert "+    Reliability:\n+        Runs twice: TODO - " in result.stdout
    assert copied.read_bytes() == before
    assert "would fix 10 findings in 1 file" in result.stderr
    # Applying the printed diff gives exactly what --fix writes.
    patch = subprocess.run(["patch", "-p0", "--dry-run", "-o", "-"], input=result.stdout, cwd=tmp_path,
                           capture_output=True, text=True) if shutil.which("patch") else None
    if patch is not None:
        assert patch.returncode == 0, patch.stderr
        assert (FIX_DATA / "functions.fixed.py").read_text() in patch.stdout

    run(["check", "--fix", "functions.py"], tmp_path)
    again = run(["check", "--diff", "functions.py"], tmp_path)
    assert again.returncode == 0 and again.stdout == ""


def test_the_section_states_facts_and_leaves_every_judgment_open() -> None:
    text = (FIX_DATA / "functions.fixed.py").read_text()
    report = api.check_sources({"functions.py": text}, Config(), api.Selection(select=["ALL"]))
    fn = report.project.functions["functions.no_docstring"]
    answers = fivequestions.read(fn.docstring)
    assert answers.has_section and not answers.missing
    assert sorted(answers.placeholders) == sorted(fivequestions.QUESTIONS)
    assert "HTTP write via requests.post" in answers.answers["runs_twice"]
    assert "Retried as configured (autoretry_for=(Exception,), max_retries=3, retry_backoff=True) - at most 3 retries, exponential backoff." in answers.answers["retries"]
    assert "nothing that retries it" in fivequestions.read(report.project.functions["functions.async_job"].docstring).answers["retries"]


def test_the_section_states_effects_before_records_guards_delivery_and_overlap_settings() -> None:
    text = (FIX_DATA / "records.fixed.py").read_text()
    report = api.check_sources({"records.py": text}, Config(), api.Selection(select=["ALL"]))
    answers = {q: fivequestions.read(report.project.functions[f"records.{q}"].docstring).answers
               for q in ("send_reminders", "charge", "sweep")}
    assert "Effect before record - email via mail.send_mail in records.send_reminders, then `sent` written after " \
        "it." in answers["send_reminders"]["dies_mid_run"]
    assert "Delivery - at-least-once." in answers["charge"]["dies_mid_run"]
    assert "With a guard - payment via stripe.PaymentIntent.create" in answers["charge"]["runs_twice"]
    assert "It runs on a schedule. Settings - max_instances=3." in answers["sweep"]["overlaps"]
    assert all(sorted(fivequestions.read(report.project.functions[f"records.{q}"].docstring).placeholders)
               == sorted(fivequestions.QUESTIONS) for q in answers)


def _fix_file(path: Path) -> fix.Plan:
    report = api.check_paths([str(path)], Config(root=path.parent), api.Selection(select=["JC501"]))
    plan = fix.plan(report.findings, report.project)
    fix.write(plan.changes)
    return plan


JOB = (
    "from celery import shared_task\n"
    "\n"
    "\n"
    "@shared_task\n"
    "def job(x):\n"
    "    # caf\u00e9\n"
    "    return x\n"
)


@pytest.mark.parametrize("encoding,header", [("latin-1", "# -*- coding: latin-1 -*-\n"), ("utf-8-sig", ""), ("utf-8", "")])
def test_fixed_files_keep_their_encoding_newlines_and_mode(tmp_path: Path, encoding: str, header: str) -> None:
    path = tmp_path / "jobs.py"
    path.write_bytes((header + JOB).replace("\n", "\r\n").encode(encoding))
    path.chmod(0o755)
    plan = _fix_file(path)
    assert [len(c.fixed) for c in plan.changes] == [1]
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") == (encoding == "utf-8-sig")
    text = data.decode(encoding)
    assert "caf\u00e9" in text and "Reliability:" in text
    assert text.count("\r\n") == text.count("\n"), "every newline, the inserted ones too, is CRLF"
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
    assert _fix_file(path).changes == []  # idempotent


def test_a_symlink_keeps_pointing_at_the_fixed_file(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_text(JOB, encoding="utf-8")
    link = tmp_path / "link.py"
    link.symlink_to(real)
    sourcefile.write_atomic(link, b"x = 1\n")
    assert link.is_symlink() and real.read_bytes() == b"x = 1\n"


def test_a_failed_write_leaves_the_original_and_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "jobs.py"
    path.write_text(JOB, encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        sourcefile.write_atomic(path, b"truncated")
    assert path.read_text(encoding="utf-8") == JOB
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs.py"]


def test_a_file_whose_encoding_would_not_write_it_back_is_left_alone(tmp_path: Path) -> None:
    """`unicode_escape` decodes `\\xe9` to é but encodes each newline as `\\n`: written back, the
    file would be one line. It is refused, and says why."""
    path = tmp_path / "jobs.py"
    original = ("# coding: unicode_escape\n" + JOB.replace("caf\u00e9", "caf\\xe9")).encode("ascii")
    path.write_bytes(original)
    plan = _fix_file(path)
    assert plan.changes == [] and path.read_bytes() == original
    assert plan.skipped == [(str(path), "its declared encoding (unicode_escape) does not write back the bytes it "
                                        "reads; fix it by hand, or declare a text encoding such as utf-8")]


def test_a_name_written_in_another_unicode_form_is_fixed() -> None:
    """Python reads `def ﬁx_job` (a ligature) as `fix_job` (NFKC, PEP 3131), as the analysis does:
    the fix finds it by that name."""
    new = _insert("def \ufb01x_job():\n    return 1\n", "fix_job", 1, ("Reliability:",))
    assert new == 'def \ufb01x_job():\n    """\n    Reliability:\n    """\n    return 1\n'


def test_temporary_files_of_a_killed_run_are_removed_by_the_next(tmp_path: Path) -> None:
    path = tmp_path / "jobs.py"
    path.write_text(JOB, encoding="utf-8")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f".jobs.py.{dead.stdout.strip()}.k1ll3d.jobcheck-tmp"  # what a kill -9 leaves
    running = tmp_path / f".jobs.py.{os.getppid()}.wr1t1ng.jobcheck-tmp"  # another run, still writing
    old = tmp_path / ".jobs.py.abc123.jobcheck-tmp"  # an earlier version's name, an hour old
    for leftover in (left, running, old):
        leftover.write_bytes(b"half")
    os.utime(old, (0, 0))
    sourcefile.write_atomic(path, b"x = 1\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["jobs.py", running.name])


# ---- suppression comments (the editor's quick fix) ----------------------------------------------


def _suppressed(text: str, code: str, line: int, end_line: int | None = None) -> str:
    edit = suppression.suppress(text, code, line, end_line)
    assert edit is not None
    return suppression.apply(text, edit)


def test_suppression_appends_a_comment() -> None:
    assert _suppressed("x = 1\ncall()\n", "JC201", 2) == "x = 1\ncall()  # jobcheck: ignore[JC201]\n"
    assert _suppressed("call()   \r\n", "JC201", 1) == "call()  # jobcheck: ignore[JC201]\r\n"


def test_suppression_merges_into_a_jobcheck_comment_and_keeps_other_tools_comments() -> None:
    assert _suppressed("call()  # jobcheck: ignore[JC101]\n", "JC201", 1) == "call()  # jobcheck: ignore[JC101,JC201]\n"
    assert _suppressed("call()  # noqa: E501\n", "JC201", 1) == "call()  # jobcheck: ignore[JC201]  # noqa: E501\n"
    assert suppression.suppress("call()  # jobcheck: ignore[JC201]\n", "JC201", 1) is None


def test_suppression_goes_on_a_line_that_can_take_a_comment() -> None:
    text = 'send(\n    """one\n    two""", x)\n'
    assert _suppressed(text, "JC201", 2, 3) == 'send(\n    """one\n    two""", x)  # jobcheck: ignore[JC201]\n'
    text = "total = a + \\\n    b\n"
    assert _suppressed(text, "JC101", 1, 2) == "total = a + \\\n    b  # jobcheck: ignore[JC101]\n"


def test_a_suppression_added_by_the_quick_fix_silences_the_finding() -> None:
    source = (
        "import requests\nfrom celery import shared_task\n\n\n"
        "@shared_task(autoretry_for=(Exception,))\n"
        "def hook(order_id):\n"
        "    requests.post(\n        'https://partner.example/', json={'order': order_id},\n    )\n"
    )
    report = api.check_sources({"hooks.py": source}, Config(), api.Selection(select=["JC201"]))
    (finding,) = report.findings
    text = _suppressed(source, finding.code, finding.span.line, finding.span.end_line)
    assert "    requests.post(  # jobcheck: ignore[JC201]\n" in text
    assert api.check_sources({"hooks.py": text}, Config(), api.Selection(select=["JC201"])).findings == []


# ---- the libcst edit itself --------------------------------------------------------------------


def _insert(text: str, qualname: str, line: int, section: tuple[str, ...]) -> str:
    from jobcheck.integrations.fix import docstring

    new, applied, refused = docstring.insert_sections(text, [docstring.Target(qualname, line, section)])
    assert not refused and len(applied) == 1
    return new


def _docstring_of(text: str, path: list[str]) -> str:
    import ast

    node = ast.parse(text)
    for name in path:
        node = next(n for n in ast.walk(node) if getattr(n, "name", None) == name)
    return ast.get_docstring(node, clean=False)


AWKWARD = ("Reliability:", '    Runs twice: TODO - a \\d and """quotes""" inside')


@pytest.mark.parametrize("docstring", ['', '"""Summary."""', "'Summary.'", '"""Summary.\n\n    More.\n    """'])
def test_inserted_text_reads_back_as_written_whatever_it_holds(docstring: str) -> None:
    body = f"    {docstring}\n" if docstring else ""
    text = f"class Jobs:\n    def run(self):\n{textwrap_indent(body)}        return 1\n"
    new = _insert(text, "Jobs.run", 2, AWKWARD)
    doc = _docstring_of(new, ["Jobs", "run"])
    assert 'Runs twice: TODO - a \\d and """quotes""" inside' in doc
    assert "        Reliability:\n            Runs twice:" in doc


def textwrap_indent(body: str) -> str:
    return "".join("    " + line if line.strip() else line for line in body.splitlines(keepends=True))


def test_tabs_form_feeds_and_nested_functions() -> None:
    text = "\x0c\ndef outer():\n\tdef job():\n\t\treturn 1\n\treturn job\n"
    new = _insert(text, "outer.<locals>.job", 3, ("Reliability:", "    Runs twice: TODO"))
    assert new == '\x0c\ndef outer():\n\tdef job():\n\t\t"""\n\t\tReliability:\n\t\t\tRuns twice: TODO\n\t\t"""\n\t\treturn 1\n\treturn job\n'


def test_a_target_is_found_by_name_and_line_among_redefinitions() -> None:
    text = "def job():\n    return 1\n\n\ndef job():\n    return 2\n"
    new = _insert(text, "job", 5, ("Reliability:",))
    assert new == 'def job():\n    return 1\n\n\ndef job():\n    """\n    Reliability:\n    """\n    return 2\n'


def test_a_fact_the_reader_would_misread_is_dropped_not_written(monkeypatch) -> None:
    from jobcheck.integrations.fix import section

    report = api.check_sources({"functions.py": (FIX_DATA / "functions.py").read_text()}, Config(), api.Selection())
    site = report.project.jobs["functions.no_docstring"]
    assert any("requests.post" in line for line in section.lines(report.project, site))
    # A wrapped fact whose line starts like another question's key would steal that answer.
    # (a word too long to share a line pushes the next words onto a line of their own)
    monkeypatch.setattr(section, "_facts", lambda project, site: {"runs_twice": "x" * 74 + " Retries: surely."})
    written = section.lines(report.project, site)
    assert not any("surely" in line for line in written)
    answers = fivequestions.read("\n".join(written))
    assert sorted(answers.placeholders) == sorted(fivequestions.QUESTIONS)
