"""End to end through the installed console script: exit codes, formats, config, bad input."""

from __future__ import annotations

import json
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
                      "confidence", "job", "chain"}
    assert f["path"] == str(Path("pkg/tasks.py"))
    assert (f["line"], f["column"]) == (17, 5)
    assert f["end_line"] == 17 and f["end_column"] > f["column"]
    assert f["name"] == "retry-on-unguarded-effect" and f["severity"] == "error" and f["confidence"] == "high"
    assert f["job"] == "pkg.tasks.notify"
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
