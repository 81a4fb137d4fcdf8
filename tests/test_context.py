"""Context modules: checking some files of a project reads the modules their analysis needs —
what their names lead to — and not the rest of the import closure."""

from __future__ import annotations

import os
import re
from pathlib import Path

from jobcheck import api
from jobcheck.analysis import context, source
from jobcheck.config import Config

from .cli_support import write_tree

TASKS = """\
from shop.worker import app
from shop import notify


@app.task(autoretry_for=(Exception,), max_retries=3)
def send(user_id):
    notify.tell(user_id)
"""

NOTIFY = """\
import shop.unrelated_a
from shop.mailers import Mailer


def tell(user_id):
    Mailer().deliver(user_id)
"""

MAILERS = """\
import shop.unrelated_b
from shop.base import BaseMailer


class Mailer(BaseMailer):
    pass
"""

BASE = """\
from django.core.mail import send_mail


class BaseMailer:
    def deliver(self, user_id):
        send_mail("Hello", "body", "shop@example.com", [f"{user_id}@example.com"])

    def unused(self):
        from shop.unrelated_c import thing
        thing()
"""


def _project(root: Path, unrelated: int = 20) -> Path:
    files = {
        "shop/__init__.py": "",
        "shop/worker.py": "from celery import Celery\n\napp = Celery('shop')\n",
        "shop/tasks.py": TASKS,
        "shop/notify.py": NOTIFY,
        "shop/mailers.py": MAILERS,
        "shop/base.py": BASE,
    }
    # Modules imported along the way but never used: each imports the next, a long closure.
    for name in ("a", "b", "c"):
        files[f"shop/unrelated_{name}.py"] = f"import shop.chain0\n\n\ndef thing():\n    return '{name}'\n"
    for i in range(unrelated):
        files[f"shop/chain{i}.py"] = f"import shop.chain{i + 1}\n" if i + 1 < unrelated else "X = 1\n"
    return write_tree(root, files)


def test_a_single_file_reads_what_its_names_lead_to_and_not_the_closure(tmp_path: Path, monkeypatch) -> None:
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    read: list[str] = []
    real_load = context.load

    def counting(summaries, roots, summarize, *args, **kwargs):
        def recording(jobs):
            read.extend(module for _, _, module, _ in jobs)
            return summarize(jobs)
        return real_load(summaries, roots, recording, *args, **kwargs)

    monkeypatch.setattr(context, "load", counting)
    report = api.check_paths([os.path.join("shop", "tasks.py")], Config(), api.Selection(select=["JC201"]))
    # The effect three modules away, through an inherited method, is seen...
    assert [(f.code, f.path) for f in report.findings] == [("JC201", os.path.join("shop", "tasks.py"))]
    assert "tasks.send -> notify.tell -> BaseMailer.deliver -> mail.send_mail" in report.findings[0].message
    # ...reading the modules on the way (and the package the job imports from), not the chain of
    # modules imported but never used, nor what an unused method imports.
    assert sorted(read) == ["shop", "shop.base", "shop.mailers", "shop.notify", "shop.worker"]
    whole = api.check_paths(["."], Config(), api.Selection(select=["JC201"]))
    assert [f for f in whole.findings if f.path == report.findings[0].path] == report.findings


PROJECTS = sorted(p for p in (Path(__file__).parent.parent / "testdata" / "projects").iterdir() if p.is_dir())


def test_a_file_checked_alone_reports_nothing_the_whole_project_does_not(monkeypatch) -> None:
    """Context is partial by design (a module registering a job elsewhere is not read), so a file
    alone may miss findings; it must never invent one. (Which job a finding is told to belong to
    may differ: a retry loop that posts again is reported alone as its own, in the whole project
    as the job's that reaches it.)"""
    from jobcheck.config import load

    compared = 0
    for project in PROJECTS:
        monkeypatch.chdir(project)
        config = load(project / "pyproject.toml") if (project / "pyproject.toml").exists() else Config()
        whole = api.check_paths(["."], config)
        for summary in whole.summaries:
            alone = api.check_paths([summary.path], config).findings
            where = lambda f: (f.code, f.path, f.span, f.message)  # noqa: E731
            found = {where(f) for f in whole.findings if f.path == summary.path}
            # A decorator of a module the file alone cannot see (`from config import huey` in a
            # worker run from its folder) is read as an unknown library's, and the application's
            # own decorator whose runner is in a module the file alone does not read as that
            # decorator's: the same job, named for another framework.
            framework = lambda m: re.sub(r"\(\w+\)", "(framework)", m, count=1)  # noqa: E731
            assert {(c, p, s, framework(m)) for c, p, s, m in map(where, alone)} \
                <= {(c, p, s, framework(m)) for c, p, s, m in found}, summary.path
            compared += 1
    assert compared >= 30


def test_a_given_file_read_again_as_context_is_reported_once(tmp_path: Path, monkeypatch) -> None:
    """Two script folders each hold a `helper.py`, so both are named by their path
    (`scripts_a.helper`); `tasks.py` beside one imports it as `helper`, as Python would from the
    script's folder. Context loading reads that file again under the name `helper` (so the job
    sees the helper's effects), but its findings are the given file's, reported once, and the file
    is counted once."""
    job = (
        "from celery import shared_task\nfrom helper import notify\n\n\n"
        "@shared_task(autoretry_for=(Exception,))\ndef send(user_id):\n    notify(user_id)\n"
    )
    helper = (
        "import requests\nfrom celery import shared_task\n\n\n"
        "def notify(user_id):\n    requests.post('https://x.example/', json={'id': user_id})\n\n\n"
        "@shared_task\ndef ping():\n    return 1\n"
    )
    root = write_tree(tmp_path / "proj", {
        "scripts_a/tasks.py": job,
        "scripts_a/helper.py": helper,
        "scripts_b/helper.py": "def notify(user_id):\n    return user_id\n",
    })
    monkeypatch.chdir(root)  # display paths relative, as `jobcheck check .` gives them
    report = api.check_paths(["."], Config(root=root), api.Selection(select=["JC201", "JC501"]))
    assert report.files == 3
    found = sorted((Path(f.path).name, f.code, f.span.line) for f in report.findings)
    assert found == [("helper.py", "JC501", 10), ("tasks.py", "JC201", 7), ("tasks.py", "JC501", 6)], found


def test_a_standard_library_import_is_never_taken_for_a_sibling_package(tmp_path: Path) -> None:
    """`import logging` in `shop/tasks.py` is the standard library's though `shop/logging/`
    exists; `from core.mailer import send` is the sibling `shop/core/mailer.py` (the folder on
    sys.path)."""
    from jobcheck.analysis.program import Program

    root = write_tree(tmp_path / "proj", {
        "shop/__init__.py": "",
        "shop/logging/__init__.py": "def getLogger(name):\n    return name\n",
        "shop/core/__init__.py": "",
        "shop/core/mailer.py": "def send(to):\n    return to\n",
        "shop/tasks.py": "import logging\nfrom core.mailer import send\n\nlog = logging.getLogger(__name__)\n",
    })
    summaries = [source.summarize_file(p, str(p)) for p in sorted(root.rglob("*.py"))]
    program = Program(summaries)
    assert program.rewrites == {"shop.tasks": {"core": "shop.core"}}
    assert program.modules["shop.tasks"].imports["logging"] == "logging"
