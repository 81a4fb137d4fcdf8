"""End to end through the installed console script: exit codes, formats, config, bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .cli_support import write_tree

BAD_TASK = textwrap.dedent(
    '''
    import requests
    from celery import shared_task


    @shared_task(autoretry_for=(Exception,), max_retries=3)
    def notify(order_id):
        """Notify the partner.

        Reliability:
            Runs twice: no.
            Overlaps: no.
            Dies mid-run: resent.
            Retries: 3.
            Idempotent: no.
        """
        requests.post("https://partner.example/", json={"order": order_id})
    '''
)
CLEAN_TASK = BAD_TASK.replace('json={"order": order_id})', 'json={"order": order_id}, headers={"Idempotency-Key": f"order-{order_id}"})')


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jobcheck.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "tasks.py").write_text(BAD_TASK)
    (tmp_path / "pkg" / "clean.py").write_text(CLEAN_TASK.replace("def notify", "def notify_clean"))
    return tmp_path


def test_findings_exit_1_and_json_shape(project: Path) -> None:
    result = run(["check", "--output-format", "json", "pkg"], project)
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)
    assert [f["code"] for f in findings] == ["JC201"]
    f = findings[0]
    assert set(f) >= {"code", "name", "path", "line", "column", "end_line", "end_column", "message", "severity",
                      "confidence", "job", "chain", "function"}
    assert f["path"] == str(Path("pkg/tasks.py"))
    assert (f["line"], f["column"]) == (17, 5)
    assert f["end_line"] == 17 and f["end_column"] > f["column"]
    assert f["name"] == "retry-on-unguarded-effect" and f["severity"] == "error" and f["confidence"] == "high"
    assert f["job"] == "pkg.tasks.notify"
    assert f["function"] == "pkg.tasks.notify"  # the function the finding lies in
    assert f["chain"] == ["pkg.tasks.notify", "requests.post"]


def test_clean_exit_0(project: Path) -> None:
    result = run(["check", "pkg/clean.py"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings" in result.stdout


def test_exit_zero_and_text_output(project: Path) -> None:
    result = run(["check", "--exit-zero", "pkg"], project)
    assert result.returncode == 0
    assert "pkg/tasks.py:17:5: JC201" in result.stdout
    assert 'requests.post("https://partner.example/"' in result.stdout  # the code line
    assert "chain: pkg.tasks.notify -> requests.post" in result.stdout
    assert re.search(r"\b1\s+JC201\b", result.stdout)  # the closing summary per rule


def test_missing_path_is_a_usage_error(project: Path) -> None:
    result = run(["check", "pkg", "no/such/place"], project)
    assert result.returncode == 2 and "no/such/place" in result.stderr


def test_concise_output(project: Path) -> None:
    result = run(["check", "--output-format", "concise", "pkg"], project)
    assert result.stdout.splitlines()[0].startswith("pkg/tasks.py:17:5: JC201 ")


def test_select_and_ignore(project: Path) -> None:
    assert run(["check", "--select", "JC501", "pkg"], project).returncode == 0
    assert run(["check", "--ignore", "JC2", "pkg"], project).returncode == 0
    assert run(["check", "--select", "JC9", "pkg"], project).returncode == 2


def test_suppression_comment(project: Path) -> None:
    path = project / "pkg" / "tasks.py"
    path.write_text(path.read_text().replace('order_id})\n', 'order_id})  # jobcheck: ignore[JC201]\n'))
    assert run(["check", "pkg"], project).returncode == 0
    path.write_text(path.read_text().replace("# jobcheck: ignore[JC201]", "# jobcheck: ignore[JC101]"))
    assert run(["check", "pkg"], project).returncode == 1


def test_config_from_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.jobcheck]\nignore = ["JC201"]\n')
    assert run(["check", "pkg"], project).returncode == 0
    (project / "pyproject.toml").write_text('[tool.jobcheck]\nper-file-ignores = { "pkg/tasks.py" = ["JC201"] }\n')
    assert run(["check", "pkg"], project).returncode == 0
    (project / "pyproject.toml").write_text('[tool.jobcheck]\nextend-exclude = ["tasks.py"]\n')
    assert run(["check", "pkg"], project).returncode == 0


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ('[tool.jobcheck]\nselekt = ["JC201"]\n', "tool.jobcheck.selekt"),
        ('[tool.jobcheck]\nselect = "JC201"\n', "tool.jobcheck.select"),
        ('[tool.jobcheck]\nignore = ["JC999"]\n', "tool.jobcheck.ignore"),
        ('[tool.jobcheck.entry-points]\ndecorator = ["x"]\n', "tool.jobcheck.entry-points.decorator"),
        ('[tool.jobcheck]\nselect = [\n', "cannot read"),
        ('[tool.jobcheck]\nframeworks = ["celery", "selery"]\n', "unknown framework 'selery'"),
    ],
)
def test_config_errors_exit_2_and_name_the_key(project: Path, toml: str, named: str) -> None:
    (project / "pyproject.toml").write_text(toml)
    result = run(["check", "pkg"], project)
    assert result.returncode == 2
    assert named in result.stderr


def test_bad_files_are_reported_and_others_still_checked(project: Path) -> None:
    pkg = project / "pkg"
    (pkg / "broken.py").write_text("def broken(:\n    pass\n")
    (pkg / "latin.py").write_bytes("# -*- coding: latin-1 -*-\nNAME = 'caf\xe9'\n".encode("latin-1"))
    (pkg / "not_utf8.py").write_bytes(b"NAME = '\xff\xfe'\n")
    (pkg / "nul.py").write_bytes(b"x = 1\x00\n")
    result = run(["check", "--output-format", "json", "pkg"], project)
    assert result.returncode == 1
    findings = json.loads(result.stdout)
    by_path = {(Path(f["path"]).name, f["code"], f["name"]) for f in findings}
    assert ("broken.py", "JC000", "parse-error") in by_path
    assert ("not_utf8.py", "JC000", "unreadable-file") in by_path
    assert ("nul.py", "JC000", "unreadable-file") in by_path
    assert not any(name == "latin.py" for name, _, _ in by_path)  # PEP 263 honoured
    assert ("tasks.py", "JC201", "retry-on-unguarded-effect") in by_path  # the rest is still checked
    broken = next(f for f in findings if f["path"].endswith("broken.py"))
    assert broken["line"] == 1 and "cannot parse" in broken["message"]


def test_jc000_reported_whatever_the_selection(project: Path) -> None:
    (project / "pkg" / "broken.py").write_text("def broken(:\n")
    result = run(["check", "--select", "JC501", "--output-format", "json", "pkg"], project)
    assert [f["code"] for f in json.loads(result.stdout)] == ["JC000"]


def test_explain_and_rules(project: Path) -> None:
    result = run(["explain", "JC201"], project)
    assert result.returncode == 0 and "Why is this bad" in result.stdout
    assert run(["explain", "retry-on-unguarded-effect"], project).returncode == 0
    assert run(["explain", "JC999"], project).returncode == 2
    rules = json.loads(run(["rules", "--format", "json"], project).stdout)
    assert {"JC101", "JC102", "JC103", "JC201", "JC501", "JC502"} <= {r["code"] for r in rules}


def test_cross_module_chain(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "shop/__init__.py": "",
        "shop/celery.py": "from celery import Celery\napp = Celery('shop')\n",
        "shop/notify.py": "from django.core.mail import EmailMessage\n\n\n"
                          "def tell_customer(to):\n    EmailMessage('s', 'b', to=[to]).send()\n",
        "shop/jobs.py": "from shop.celery import app\nfrom shop import notify\n\n\n"
                        "@app.task(autoretry_for=(Exception,))\ndef announce(to):\n    notify.tell_customer(to)\n",
    })
    result = run(["check", "--select", "JC201", "--output-format", "json", "shop"], tmp_path)
    findings = json.loads(result.stdout)
    assert len(findings) == 1
    assert findings[0]["chain"] == ["shop.jobs.announce", "shop.notify.tell_customer", "django.core.mail.EmailMessage().send"]
    assert "announce -> notify.tell_customer -> EmailMessage().send" in findings[0]["message"]
    assert findings[0]["line"] == 7


def test_columns_count_characters_not_bytes(tmp_path: Path) -> None:
    (tmp_path / "jobs.py").write_text(
        "import requests\nfrom celery import shared_task\n\n\n@shared_task(autoretry_for=(Exception,))\n"
        "def café(o):\n    réponse = requests.post('https://x.example/', json={'o': o})\n",
        encoding="utf-8",
    )
    findings = json.loads(run(["check", "--select", "JC201", "--output-format", "json", "jobs.py"], tmp_path).stdout)
    line = "    réponse = requests.post('https://x.example/', json={'o': o})"
    assert findings[0]["column"] == line.index("requests") + 1
    assert findings[0]["end_column"] == len(line) + 1


def test_one_file_still_sees_effects_in_the_modules_it_imports(tmp_path: Path) -> None:
    # pre-commit passes only the staged files: the helper module is context, not reported.
    write_tree(tmp_path, {
        "shop/__init__.py": "",
        "shop/notify.py": "from celery import shared_task\nfrom django.core.mail import send_mail\n\n\n"
                          "def tell(to):\n    send_mail('s', 'b', 'f@example.com', [to])\n\n\n"
                          "@shared_task\ndef unrelated_job():\n    pass\n",
        "shop/jobs.py": "from celery import shared_task\n\n\n@shared_task(autoretry_for=(Exception,))\n"
                        "def announce(to):\n    from shop.notify import tell\n\n    tell(to)\n",
    })
    result = run(["check", "--select", "JC201,JC501", "--output-format", "json", "shop/jobs.py"], tmp_path)
    findings = json.loads(result.stdout)
    assert sorted((f["code"], f["path"]) for f in findings) == [("JC201", "shop/jobs.py"), ("JC501", "shop/jobs.py")]
    jc201 = next(f for f in findings if f["code"] == "JC201")
    assert jc201["chain"] == ["shop.jobs.announce", "shop.notify.tell", "django.core.mail.send_mail"]


def test_jobcheck_is_clean_on_itself() -> None:
    """Dogfooding: jobcheck's own code (which mentions every pattern in strings and docs) is clean."""
    root = Path(__file__).resolve().parent.parent
    result = run(["check", "--no-cache", "jobcheck"], root)
    assert result.returncode == 0, result.stdout + result.stderr


# ---- exit codes: 1 is findings and nothing else (issue 19) -------------------------------------


def _explode(*_args, **_kwargs):
    raise ZeroDivisionError("boom")


@pytest.mark.parametrize(("args", "target"), [
    (["check", "--exit-zero", "--no-cache", "--output-format", "json", "pkg"], "jobcheck.output.json.render"),
    (["check", "--exit-zero", "--no-cache", "pkg"], "jobcheck.output.text.write_lines"),
    (["check", "--exit-zero", "--statistics", "--no-cache", "pkg"], "jobcheck.output.statistics.render"),
    (["jobs", "--no-cache", "pkg"], "jobcheck.output.inventory.rows"),
    (["explain", "JC201"], "jobcheck.ruledocs.document"),
    (["rules"], "jobcheck.ruledocs.rules"),
    (["lsp"], "jobcheck.integrations.lsp.server.serve"),
])
def test_an_internal_error_in_any_command_exits_2_in_one_line(project: Path, monkeypatch, args, target) -> None:
    """Also an error raised by an output format, after findings were found, under --exit-zero."""
    from .cli_support import run_cli

    monkeypatch.setattr(target, _explode)
    monkeypatch.delenv("JOBCHECK_DEBUG", raising=False)
    result = run_cli(args, project)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "internal error: ZeroDivisionError: boom" in result.stderr
    assert "Traceback" not in result.stderr
    for verbose in ([*args[:1], "--verbose", *args[1:]], ["--verbose", *args]):
        result = run_cli(verbose, project)
        assert result.exit_code == 2 and "Traceback" in result.stderr and "ZeroDivisionError: boom" in result.stderr


def test_an_interruption_exits_2(project: Path, monkeypatch) -> None:
    from jobcheck.engine import cached_run

    from .cli_support import run_cli

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cached_run, "check_paths", interrupted)
    result = run_cli(["check", "--exit-zero", "pkg"], project)
    assert result.exit_code == 2 and "interrupted" in result.stderr


def test_a_report_that_cannot_be_written_exits_2(project: Path) -> None:
    for fmt in ("text", "json", "sarif"):
        with open("/dev/full", "w") as full:
            result = subprocess.run([sys.executable, "-m", "jobcheck.cli", "check", "--exit-zero", "--output-format", fmt, "pkg"],
                                    cwd=project, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip().splitlines() == ["jobcheck: cannot write the report to standard output: No space left on device"]
    for command in ("check --exit-zero pkg", "jobs pkg", "rules", "rules --format json", "explain JC201"):
        for redirect in (">&-", ">/dev/full"):
            closed = subprocess.run(f"{sys.executable} -m jobcheck.cli {command} {redirect}", shell=True, cwd=project,
                                    capture_output=True, text=True, timeout=120)
            assert closed.returncode == 2 and "cannot write the report to standard output" in closed.stderr, command
    result = run(["check", "--exit-zero", "--output-file", "no/such/folder/report.json", "pkg"], project)
    assert result.returncode == 2 and "cannot write the report to no/such/folder/report.json" in result.stderr
    assert "Traceback" not in result.stderr
    result = run(["check", "--write-baseline", "no/such/folder/base.json", "pkg"], project)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "internal error" not in result.stderr


@pytest.mark.parametrize("command", [["check", "--exit-zero"], ["check", "--exit-zero", "--output-format", "json"], ["jobs"]])
def test_a_reader_that_goes_away_stops_the_run_with_2_and_no_noise(tmp_path: Path, command) -> None:
    """`jobcheck check | head -1`: 2, since the report was not delivered (1 would say findings,
    and --exit-zero must not turn it into 0); no traceback, no 'Exception ignored'."""
    for i in range(400):
        (tmp_path / f"tasks_{i}.py").write_text(BAD_TASK.replace("def notify", f"def notify_{i}"))
    # Buffered, as by default: unbuffered (PYTHONUNBUFFERED=1), Python drops the rest of a single
    # large write the reader did not take without an error, and the run ends as if delivered.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen([sys.executable, "-m", "jobcheck.cli", *command, "--no-cache", "."], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    process.stdout.read(1)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 2
    assert stderr == ""


# ---- ruff's command line: stdin, --output-file, --statistics, --quiet --------------------------


STDIN_JOB = textwrap.dedent(
    '''
    from celery import shared_task

    from pkg.helpers import ping


    @shared_task(autoretry_for=(Exception,), max_retries=3)
    def announce(order_id):
        ping(order_id)
    '''
).lstrip()
HELPERS = 'import requests\n\n\ndef ping(order_id):\n    requests.post("https://partner.example/", json={"order": order_id})\n'


def stdin_run(args: list[str], cwd: Path, data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jobcheck.cli", *args], cwd=cwd, input=data, capture_output=True,
                          timeout=120)


def test_stdin_is_checked_as_the_named_file(project: Path, tmp_path: Path) -> None:
    """Reported under the name given, configured from there (not from the working folder), with
    the modules it imports read from the disk around it, and its own text — not the file on disk
    — in the columns and the code frame."""
    (project / "pyproject.toml").write_text('[tool.jobcheck]\nignore = ["JC501"]\n')
    (project / "pkg" / "helpers.py").write_text(HELPERS)
    (project / "pkg" / "announce.py").write_text("# an older version on disk\n")
    data = ("# é\n" + STDIN_JOB).encode()
    result = stdin_run(["check", "-", "--stdin-filename", "pkg/announce.py", "--output-format", "json"], project, data)
    assert result.returncode == 1, result.stderr
    (finding,) = json.loads(result.stdout)
    assert (finding["code"], finding["path"], finding["line"]) == ("JC201", "pkg/announce.py", 9)
    assert finding["chain"] == ["pkg.announce.announce", "pkg.helpers.ping", "requests.post"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    named = str(project / "pkg" / "announce.py")
    result = stdin_run(["check", "--stdin-filename", named], elsewhere, data)  # no PATHS: stdin too
    assert result.returncode == 1
    text = result.stdout.decode()
    assert f"{named}:9:5: JC201" in text and "JC501" not in text  # the project's configuration
    assert "    9 |     ping(order_id)" in text  # the code frame shows the text checked
    assert run(["check", "-", "pkg"], project).returncode == 2  # - is the only path, or none
    (project / "pyproject.toml").write_text('[tool.jobcheck]\nextend-exclude = ["pkg/announce.py"]\n')
    excluded = ["check", "--force-exclude", "--output-format", "json", "-", "--stdin-filename", "pkg/announce.py"]
    result = stdin_run(excluded, project, data)
    assert (result.returncode, json.loads(result.stdout)) == (0, [])
    result = stdin_run([*excluded, "--fix"], project, data)
    assert (result.returncode, result.stdout) == (0, data)  # as it came


def test_stdin_with_fix_prints_the_fixed_source_and_reports_on_stderr(project: Path) -> None:
    (project / "pkg" / "helpers.py").write_text(HELPERS)
    data = STDIN_JOB.replace("\n", "\r\n").encode()
    args = ["check", "--fix", "-", "--stdin-filename", "pkg/announce.py", "--output-format", "concise"]
    result = stdin_run(args, project, data)
    assert result.returncode == 1
    fixed = result.stdout.decode()
    assert '    """TODO: say what this job does.\r\n' in fixed or "Reliability:\r\n" in fixed
    assert fixed.count("\r\n") == fixed.count("\n")  # the text's newlines kept
    report = result.stderr.decode()
    assert re.search(r"^pkg/announce.py:\d+:5: JC201 ", report, re.M) and "JC501" not in report and "JC502" in report
    assert not (project / "pkg" / "announce.py").exists()  # nothing written
    again = stdin_run(args, project, result.stdout)
    assert again.stdout == result.stdout  # nothing left to fix: the text as it came
    diff = stdin_run(["check", "--diff", "-", "--stdin-filename", "pkg/announce.py"], project, data)
    assert diff.returncode == 1 and diff.stdout.decode().startswith("--- pkg/announce.py\n+++ pkg/announce.py\n")
    assert stdin_run(["check", "--diff", "-", "--stdin-filename", "pkg/announce.py"], project, result.stdout).returncode == 0


def test_output_file_holds_the_report_of_any_format(project: Path) -> None:
    for fmt in ("text", "concise", "json", "sarif", "github", "gitlab"):
        printed = run(["check", "--output-format", fmt, "pkg"], project)
        target = project / "out" / f"report.{fmt}"
        target.parent.mkdir(exist_ok=True)
        target.write_text("the previous report\n")
        written = run(["check", "--output-format", fmt, "--output-file", str(target), "pkg"], project)
        assert written.returncode == printed.returncode == 1
        assert written.stdout == ""
        assert target.read_text() == printed.stdout
    assert [p.name for p in (project / "out").iterdir() if "jobcheck-tmp" in p.name] == []
    jobs = run(["jobs", "--output-format", "json", "-o", "jobs.json", "pkg"], project)
    assert jobs.returncode == 0 and json.loads((project / "jobs.json").read_text())["jobs"]


def test_output_file_is_replaced_only_by_a_whole_report(project: Path, monkeypatch) -> None:
    from .cli_support import run_cli

    target = project / "report.json"
    target.write_text("the previous report\n")

    def half_then_fail(report, stream, **_options):
        stream.write("[{")
        raise ZeroDivisionError("boom")

    monkeypatch.setattr("jobcheck.output.json.render", half_then_fail)
    result = run_cli(["check", "--no-cache", "--output-format", "json", "-o", str(target), "pkg"], project)
    assert result.exit_code == 2
    assert target.read_text() == "the previous report\n"
    assert sorted(p.name for p in project.iterdir()) == ["pkg", "report.json"]


def test_statistics_count_findings_per_rule(project: Path) -> None:
    (project / "pkg" / "more.py").write_text(BAD_TASK.replace("def notify", "def notify_more")
                                             .replace('"""Notify the partner.', '"""Notify.\n    """\n    x = """'))
    text = run(["check", "--statistics", "pkg"], project)
    assert text.returncode == 1
    assert text.stdout.splitlines() == ["  2  JC201  retry-on-unguarded-effect", "  1  JC501  missing-five-questions"]
    counts = json.loads(run(["check", "--statistics", "--output-format", "json", "pkg"], project).stdout)
    assert counts == [{"code": "JC201", "name": "retry-on-unguarded-effect", "count": 2},
                      {"code": "JC501", "name": "missing-five-questions", "count": 1}]
    assert run(["check", "--statistics", "--output-format", "concise", "pkg"], project).stdout == text.stdout
    assert run(["check", "--statistics", "--exit-zero", "pkg/clean.py"], project).stdout == ""
    refused = run(["check", "--statistics", "--output-format", "sarif", "pkg"], project)
    assert refused.returncode == 2 and "--statistics" in refused.stderr


def test_quiet_prints_the_findings_only(project: Path) -> None:
    loud = run(["check", "pkg"], project)
    quiet = run(["check", "--quiet", "pkg"], project)
    assert quiet.returncode == loud.returncode == 1
    assert "Found 1 finding" in loud.stdout and "Found" not in quiet.stdout
    assert quiet.stdout == loud.stdout[: loud.stdout.index("  1  JC201")]
    assert run(["check", "-q", "pkg/clean.py"], project).stdout == ""
    assert run(["check", "-q", "--output-format", "json", "pkg"], project).stdout == run(
        ["check", "--output-format", "json", "pkg"], project).stdout
    assert run(["check", "--write-baseline", "base.json", "pkg"], project).stderr != ""
    result = run(["check", "-q", "--baseline", "base.json", "pkg"], project)
    assert result.returncode == 0 and result.stdout == result.stderr == ""


def test_an_empty_rule_code_on_the_command_line_is_an_error(project: Path) -> None:
    """`--select "$RULES"` with RULES unset in CI must not turn every rule off and pass."""
    for option in ("--select", "--ignore", "--extend-select"):
        for value in ("", "JC201,", " , "):
            result = run(["check", option, value, "pkg"], project)
            assert result.returncode == 2, (option, value)
            assert "empty rule code" in result.stderr
