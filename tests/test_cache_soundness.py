"""The cache is invisible: after any edit (random edits of bodies, name tables, decorators,
calls, classes and structure, and targeted edits of what linking and the scans read) the cached
run gives exactly what a run without a cache gives."""

from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path

import pytest

from jobcheck import api
from jobcheck.analysis.parse import parse  # testdata holds newer syntax than the running Python
from jobcheck.cache import store as cache
from jobcheck.config import Config, load
from jobcheck.engine import cached_run

from .test_cache_parallel import _age
from .testdata_support import TESTDATA

SEED = 29


def random_body_edit(text: str, rng: random.Random) -> str:
    """One edit inside the body of a random function: a statement inserted (a call that posts,
    one that prints, a call of a function of the module or of a name it imports, a fresh key),
    dropped, or doubled, or a parameter added. Lines below move. An edit that would break the
    file is not made."""
    edited = _statement_edit(text, rng)
    try:
        parse(edited)
    except SyntaxError:
        return text
    return edited


def _statement_edit(text: str, rng: random.Random) -> str:
    tree = parse(text)
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return text
    fn = rng.choice(functions)
    statements = [s for s in ast.walk(fn) if isinstance(s, ast.stmt) and s is not fn
                  and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if not statements:
        return text
    stmt = rng.choice(statements)
    lines = text.splitlines(keepends=True)
    first, last = stmt.lineno - 1, stmt.end_lineno
    indent = " " * stmt.col_offset
    names = [n.name for n in functions if n.col_offset == 0] or ["print"]
    imported = [a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names] or ["print"]
    kind = rng.choice(["insert", "insert", "insert", "drop", "double", "parameter"])
    if kind == "parameter":  # the function gains a parameter with a default
        head = lines[fn.lineno - 1]
        if head.rstrip().endswith("):") and "(" in head:
            at = head.rindex(")")
            added = "_probe=None" if head[at - 1] == "(" else ", _probe=None"
            lines[fn.lineno - 1] = head[:at] + added + head[at:]
        return "".join(lines)
    if kind == "insert":
        line = rng.choice([
            "requests.post('https://example.com/hook', json={})",
            "print('progress')",
            f"{rng.choice(names)}()",
            f"{rng.choice(imported)}()",
            "idempotency_key = str(uuid.uuid4())",
            "send_mail('subject', 'body', 'a@example.com', ['b@example.com'])",
        ])
        return "".join(lines[:last] + [indent + line + "\n"] + lines[last:])
    if kind == "drop":
        return "".join(lines[:first] + [indent + "pass\n"] + lines[last:])
    return "".join(lines[:last] + lines[first:last] + lines[last:])


def random_table_edit(text: str, rng: random.Random) -> str:
    """One edit of a module's name tables, often with a body edit using it: an import added
    (a library's, or a name of the tree), one dropped, an assignment added (a constant, a
    logger, a beat schedule), an existing assignment's value changed."""
    tree = parse(text)
    lines = text.splitlines(keepends=True)
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    at = max((n.end_lineno for n in top), default=0)
    kind = rng.choice(["import", "import and call", "drop import", "assign", "change assign"])
    if kind == "import":
        line = rng.choice(["import requests\n", "import smtplib\n", "from helpers import a as _probe_a\n",
                           "from store.mail import build_receipt as _probe_b\n", "import os.path\n"])
        return "".join(lines[:at] + [line] + lines[at:])
    if kind == "import and call":
        with_import = "".join(lines[:at] + ["import smtplib\n"] + lines[at:])
        edited = _insert_in_body(with_import, rng, "smtplib.SMTP('mail.example.com').sendmail('a', 'b', 'c')")
        return edited
    if kind == "drop import" and top:
        node = rng.choice(top)
        return "".join(lines[:node.lineno - 1] + lines[node.end_lineno:])
    assigned = [n for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)]
    if kind == "change assign" and assigned:
        node = rng.choice(assigned)
        line = lines[node.lineno - 1]
        value = ast.get_source_segment(text, node.value) or ""
        return "".join(lines[:node.lineno - 1] + [line.replace(value, repr(node.value.value) + " * 2", 1)] + lines[node.lineno:])
    line = rng.choice(["_PROBE = 3\n", "logger = logging.getLogger(__name__)\n", "beat_schedule = {}\n",
                       "DEFAULTS = {'retries': 2}\n"])
    return "".join(lines[:at] + [line] + lines[at:])


# Decorators no scan reads (a library's, the application's own, one nothing defines) and some
# that scans read (a task decorator, a retry decorator, a literal `name=` that `job_names` reads).
_UNREAD_DECORATORS = ["functools.lru_cache(maxsize=8)", "functools.cache", "_probe_decorator", "login_required",
                      "transaction.atomic", "contextlib.contextmanager"]
_READ_DECORATORS = ["shared_task", "shared_task(autoretry_for=(Exception,), max_retries=3)", "tenacity.retry",
                    "_probe_decorator(name='probe.task')", "dramatiq.actor(max_retries=2)"]


def random_decorator_edit(text: str, rng: random.Random) -> str:
    """One edit of a random function's decorators: one added right above the `def` or above
    the others (mostly one no scan reads, sometimes one that makes or changes a job), one
    dropped, or the arguments of a call decorator changed. The imports a new decorator needs
    are added with it."""
    tree = parse(text)
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return text
    fn = rng.choice(functions)
    lines = text.splitlines(keepends=True)
    indent = " " * fn.col_offset
    kind = rng.choice(["add unread", "add unread", "add unread", "add read", "drop", "arguments"])
    if kind in ("drop", "arguments") and fn.decorator_list:
        deco = rng.choice(fn.decorator_list)
        if kind == "drop":
            return "".join(lines[:deco.lineno - 1] + lines[deco.end_lineno:])
        if isinstance(deco, ast.Call) and deco.lineno == deco.end_lineno:
            line = lines[deco.lineno - 1]
            at = line.rindex(")")
            return line and "".join(lines[:deco.lineno - 1] + [line[:at] + (", " if deco.args or deco.keywords else "")
                                                               + "queue='probe')" + line[at + 1:]] + lines[deco.lineno:])
        return text
    decorator = rng.choice(_READ_DECORATORS if kind == "add read" else _UNREAD_DECORATORS)
    at = rng.choice([fn.lineno - 1, min([d.lineno for d in fn.decorator_list] + [fn.lineno]) - 1])
    lines = lines[:at] + [f"{indent}@{decorator}\n"] + lines[at:]
    module = decorator.partition(".")[0] if "." in decorator else None
    if decorator.startswith("shared_task"):
        lines.insert(0, "from celery import shared_task\n")
    elif module is not None:
        lines.insert(0, f"import {module}\n")
    return "".join(lines)


# Calls by names that scans ask for (`calls_named`), on receivers no scan reads (a local list,
# a dict, a model's manager, a thread pool) and on ones they read (a task's `delay`, RQ's queue,
# django-q's `async_task`, Celery's beat schedule).
_UNREAD_CALLS = ["items = []; items.append(1)", "seen = set(); seen.add(2)", "options = {{}}; options.update(a=1)",
                 "Order.objects.create(number=1)", "concurrent.futures.ThreadPoolExecutor().map(print, [])",
                 "signal_hub.connect(print)"]
_READ_CALLS = ["{task}.delay(1)", "{task}.apply_async((1,), link_error=None)",
               "rq.Queue(connection=None).enqueue({function}, 1)", "django_q.tasks.async_task({function}, 1)",
               "celery.Celery().conf.update(beat_schedule={{'x': {{'task': 'probe', 'schedule': 60.0}}}})"]


def random_call_edit(text: str, rng: random.Random) -> str:
    """A call inserted in a random function's body, by a name that scans ask for: mostly on a
    receiver no scan reads, sometimes one that enqueues or schedules a function of the module."""
    tree = parse(text)
    functions = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return text
    read = rng.random() < 0.3
    call = rng.choice(_READ_CALLS if read else _UNREAD_CALLS).format(task=rng.choice(functions),
                                                                     function=rng.choice(functions))
    return _insert_in_body(text, rng, call)  # (a name not imported is read as written: `rq.Queue`)


def random_class_edit(text: str, rng: random.Random) -> str:
    """One edit of a random class's attributes: one added (a plain value, or a setting a scan
    reads: `max_retries`, `retry_count`, `functions`, `beat_schedule`), one dropped, one's value
    changed, or a `self.` attribute assigned in a method."""
    tree = parse(text)
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    if not classes:
        return text
    cls = rng.choice(classes)
    lines = text.splitlines(keepends=True)
    first = cls.body[0]
    indent = " " * first.col_offset
    assigned = [n for n in cls.body if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
    methods = [n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.args.args]
    kind = rng.choice(["add", "add", "add read", "drop", "change", "self"])
    if kind == "drop" and assigned:
        node = rng.choice(assigned)
        return "".join(lines[:node.lineno - 1] + [indent + "pass\n"] + lines[node.end_lineno:])
    if kind == "change" and assigned:
        node = rng.choice(assigned)
        return "".join(lines[:node.lineno - 1] + [f"{indent}{node.targets[0].id} = 7\n"] + lines[node.end_lineno:])
    if kind == "self" and methods:
        method = rng.choice(methods)
        body = method.body[0]
        at = body.end_lineno if isinstance(body, ast.Expr) and isinstance(body.value, ast.Constant) else body.lineno - 1
        statement = f"{' ' * body.col_offset}{method.args.args[0].arg}._probe = requests.Session()\n"
        return "".join(lines[:at] + [statement] + lines[at:])
    attr = rng.choice(["max_retries = 5", "retry_count = 2", "functions = []", "beat_schedule = {}"]) if kind == "add read" \
        else rng.choice(["probe_field = 1", "verbose_name = 'probe'", "ordering = ['-id']"])
    at = first.end_lineno if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else first.lineno - 1
    return "".join(lines[:at] + [indent + attr + "\n"] + lines[at:])


def random_structure_edit(text: str, rng: random.Random) -> str:
    """Functions and classes come and go: a copy of a random top-level function or class
    (decorators, bases and body) appended under a new name, a top-level function or class
    dropped (a `pass` in its place if it stood alone in a block), or one renamed."""
    tree = parse(text)
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    if not defs:
        return text
    node = rng.choice(defs)
    lines = text.splitlines(keepends=True)
    first = min([d.lineno for d in node.decorator_list] + [node.lineno])
    kind = rng.choice(["copy", "copy", "drop", "rename"])
    keyword = "class" if isinstance(node, ast.ClassDef) else ("async def" if isinstance(node, ast.AsyncFunctionDef) else "def")
    new_name = f"{node.name}_probe{rng.randrange(100)}"
    if kind == "copy":
        block = "".join(lines[first - 1:node.end_lineno]).replace(f"{keyword} {node.name}", f"{keyword} {new_name}", 1)
        return text.rstrip("\n") + "\n\n\n" + block.rstrip("\n") + "\n"
    if kind == "drop":
        return "".join(lines[:first - 1] + lines[node.end_lineno:])
    lines[node.lineno - 1] = lines[node.lineno - 1].replace(f"{keyword} {node.name}", f"{keyword} {new_name}", 1)
    return "".join(lines)


def _insert_in_body(text: str, rng: random.Random, statement: str) -> str:
    tree = parse(text)
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return text
    stmt = rng.choice(rng.choice(functions).body)
    lines = text.splitlines(keepends=True)
    return "".join(lines[:stmt.end_lineno] + [" " * stmt.col_offset + statement + "\n"] + lines[stmt.end_lineno:])


def _sources():
    for project in sorted(p for p in (TESTDATA / "projects").iterdir() if p.is_dir()):
        yield project, None
    for source in sorted((TESTDATA / "rules").rglob("*.py")) + sorted((TESTDATA / "frameworks").rglob("*.py")):
        yield None, source


def _random_edits(tmp_path: Path, edit, per_source: int) -> dict[str, int]:
    """Seeded random edits (`edit(text, rng)`), one after another, in every testdata project and
    rule and framework file; after each, the run with the cache must give what a run without
    one gives. Returns how many edits were checked. A few per file keep the suite quick;
    `benchmarks/cache_soundness.py` checks the cache on real applications."""
    rng = random.Random(SEED)
    checked = 0
    for number, (project, source) in enumerate(_sources()):
        root = tmp_path / str(number)
        if project is not None:
            shutil.copytree(project, root)
        else:
            root.mkdir()
            shutil.copy(source, root / source.name)
        _age(root)
        config = load(root / "pyproject.toml") if (root / "pyproject.toml").exists() else Config(root=root)
        store = cache.Cache(tmp_path / "cache" / str(number))
        cached_run.check_paths([str(root)], config, cache=store)
        files = sorted(root.rglob("*.py"))
        for _ in range(per_source):
            path = rng.choice(files)
            edited = edit(path.read_text(encoding="utf-8"), rng)
            try:
                parse(edited)
            except SyntaxError:
                continue
            path.write_text(edited, encoding="utf-8")
            cached = cached_run.check_paths([str(root)], config, cache=store)
            fresh = api.check_paths([str(root)], config)
            assert not cached.reused and cached.findings == fresh.findings, (path.name, edited)
            checked += 1
    return checked


def test_cached_findings_equal_a_fresh_run_across_random_body_edits(tmp_path: Path) -> None:
    """Edits of function bodies: each cached run equals a fresh one."""
    assert _random_edits(tmp_path, random_body_edit, 2) >= 100


def test_cached_findings_equal_a_fresh_run_across_random_name_table_edits(tmp_path: Path) -> None:
    """Edits of what modules import and assign, alone or with a body that uses it: each cached
    run equals a fresh one."""
    assert _random_edits(tmp_path, random_table_edit, 1) >= 100


def test_cached_findings_equal_a_fresh_run_across_random_decorator_edits(tmp_path: Path) -> None:
    """Decorators added, dropped and changed (some make or unmake a job): each cached run equals a
    fresh one."""
    assert _random_edits(tmp_path, random_decorator_edit, 1) >= 100


def test_cached_findings_equal_a_fresh_run_across_random_call_edits(tmp_path: Path) -> None:
    """Calls by names the scans ask for (enqueues, schedules), added to bodies: each cached run
    equals a fresh one."""
    assert _random_edits(tmp_path, random_call_edit, 1) >= 100


def test_cached_findings_equal_a_fresh_run_across_random_class_edits(tmp_path: Path) -> None:
    """Class attributes added, dropped and changed: each cached run equals a fresh one."""
    assert _random_edits(tmp_path, random_class_edit, 1) >= 100


def test_cached_findings_equal_a_fresh_run_across_random_structure_edits(tmp_path: Path) -> None:
    """Functions and classes copied, dropped and renamed: each cached run equals a fresh one."""
    assert _random_edits(tmp_path, random_structure_edit, 1) >= 100


def test_an_edit_on_a_call_cycle_says_what_a_full_run_says(tmp_path: Path) -> None:
    """`a` and `b` call each other; `first` enters the cycle at `a`, `second` at `b`. What a
    walk through a cycle finds does not depend on where an earlier walk entered it
    (`Project.call_effects`), so checking `second` again alone says what a full run says."""
    root = tmp_path / "app"
    root.mkdir()
    (root / "helpers.py").write_text(
        "import requests\n\n\ndef a(x):\n    requests.post('https://example.com/a', json=x)\n    b(x)\n\n\n"
        "def b(x):\n    if x:\n        a(x)\n")
    jobs = (
        "from celery import shared_task\n\nfrom helpers import a, b\n\n\n"
        "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef first(x):\n    a(x)\n\n\n"
        "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef second(x):\n    b(x)\n")
    (root / "jobs.py").write_text(jobs)
    _age(root)
    config, store = Config(root=root), cache.Cache(tmp_path / "cache")
    cached_run.check_paths([str(root)], config, cache=store)
    (root / "jobs.py").write_text(jobs.replace("    b(x)\n", "    print(x)\n    b(x)\n"))
    cached = cached_run.check_paths([str(root)], config, cache=store)
    assert cached.findings == api.check_paths([str(root)], config).findings


def _edit_and_compare(tmp_path: Path, files: dict[str, str], path: str, edited: str):
    """Check `files`, edit one, check again with the cache: the findings must be a fresh run's."""
    root = tmp_path / "app"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    _age(root)
    config, store = Config(root=root), cache.Cache(tmp_path / "cache")
    before = cached_run.check_paths([str(root)], config, cache=store)
    (root / path).write_text(edited)
    cached = cached_run.check_paths([str(root)], config, cache=store)
    fresh = api.check_paths([str(root)], config)
    assert cached.findings == fresh.findings
    assert cached.findings != before.findings  # the edit matters: a stale answer would show
    return cached


_RETRIED = """\
from prefect import task
import requests

RETRIES = 3


@task(retries=RETRIES)
def push(order_id):
    requests.post("https://example.com/orders", json={"id": order_id})
"""


def test_an_assignment_a_job_reads_is_not_taken_for_an_unread_one(tmp_path: Path) -> None:
    """`retries=RETRIES`: the scans read RETRIES by name, so changing it runs the scans again
    and checks the module again (with no retries left, the retried post is no longer reported)."""
    _edit_and_compare(tmp_path, {"jobs.py": _RETRIED}, "jobs.py", _RETRIED.replace("RETRIES = 3", "RETRIES = 0"))


def test_a_re_export_something_resolves_through_is_not_taken_for_an_unread_import(tmp_path: Path) -> None:
    """The job calls `helpers.send`; the package re-exports `send` from one module, then from
    another that does not post. Resolution read that import: the modules that import the
    package (the job's) are checked again."""
    files = {
        "helpers/__init__.py": "from .mail import send\n",
        "helpers/mail.py": "import requests\n\n\ndef send(x):\n    requests.post('https://example.com', json=x)\n",
        "helpers/quiet.py": "def send(x):\n    return x\n",
        "jobs.py": "from celery import shared_task\n\nimport helpers\n\n\n"
                   "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef push(x):\n    helpers.send(x)\n",
    }
    _edit_and_compare(tmp_path, files, "helpers/__init__.py", "from .quiet import send\n")


def test_an_import_that_linking_rewrites_is_linked_again(tmp_path: Path) -> None:
    """The job's module starts to import `core.mailer`, which only resolves with site/ on
    sys.path (`relink`): the module's rewrites change, which a re-check cannot replay."""
    files = {
        "site/__init__.py": "",
        "site/core/__init__.py": "",
        "site/core/mailer.py": "import requests\n\n\ndef notify(a):\n    requests.post('https://example.com', json=a)\n",
        "site/jobs/__init__.py": "",
        "site/jobs/tasks.py": "from celery import shared_task\n\n\n"
                              "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef welcome(address):\n"
                              "    print(address)\n",
    }
    edited = files["site/jobs/tasks.py"].replace("\n\n\n@", "\nfrom core.mailer import notify\n\n\n@").replace(
        "print(address)", "notify(address)")
    _edit_and_compare(tmp_path, files, "site/jobs/tasks.py", edited)


def test_an_unread_import_and_a_body_that_uses_it(tmp_path: Path) -> None:
    """The common edit: an import added and a call of it in a job's body. Nothing looked the
    new name up in the module before: only the job is checked again."""
    edited = _RETRIED.replace("import requests\n", "import requests\nimport smtplib\n").replace(
        '    requests.post', '    smtplib.SMTP("mail.example.com").sendmail("a", "b", "c")\n    requests.post')
    files = {"jobs.py": _RETRIED.replace('    requests.post("https://example.com/orders", json={"id": order_id})',
                                         '    print(order_id)')}
    edited = files["jobs.py"].replace("import requests\n", "import requests\nimport smtplib\n").replace(
        "    print(order_id)", '    smtplib.SMTP("mail.example.com").sendmail("a", "b", "c")')
    _edit_and_compare(tmp_path, files, "jobs.py", edited)


_HELPER = "import requests\n\n\ndef send(x):\n    requests.post('https://example.com', json=x)\n"
_CALLER = ("from celery import shared_task\n\nimport helpers\n\n\n"
           "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef push(x):\n    helpers.send(x)\n")


def test_a_function_renamed_checks_again_the_modules_that_import_it(tmp_path: Path) -> None:
    """`helpers.send` renamed: the job that called it (in a module importing `helpers`) posts no
    more. Its module is checked again, calls resolved anew (the recorded call edges of its
    functions are not trusted)."""
    files = {"helpers.py": _HELPER, "jobs.py": _CALLER}
    cached = _edit_and_compare(tmp_path, files, "helpers.py", _HELPER.replace("def send", "def send_now"))
    assert [f.code for f in cached.findings] == ["JC501"]


def test_a_re_export_pointed_elsewhere_reaches_the_new_function(tmp_path: Path) -> None:
    """`helpers.send` re-exported from another module: the job now reaches a function that
    keys a charge by the clock (JC101 there). The importing module's calls are resolved anew,
    so the new function is reached and checked."""
    files = {
        "helpers/__init__.py": "from .mail import send\n",
        "helpers/mail.py": "def send(x):\n    return x\n",
        "helpers/clock.py": "import time\n\nimport stripe\n\n\ndef send(x):\n"
                            "    stripe.Charge.create(amount=x, idempotency_key=f'c-{time.time()}')\n",
        "jobs.py": "from celery import shared_task\n\nimport helpers\n\n\n@shared_task\ndef push(x):\n    helpers.send(x)\n",
    }
    cached = _edit_and_compare(tmp_path, files, "helpers/__init__.py", "from .clock import send\n")
    assert "JC101" in [f.code for f in cached.findings]


def test_a_class_read_through_a_new_import_checks_the_importer_again(tmp_path: Path) -> None:
    """A module starts to import `helpers` and to post through `helpers.Gateway.client`
    (re-checked); then the class attribute changes. The module's new import counts: it is
    checked again, and the post is gone."""
    gateway = "import requests\n\n\nclass Gateway:\n    client = requests.Session()\n"
    caller = ("from celery import shared_task\n\nimport helpers\n\n\n"
              "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef push(x):\n"
              "    helpers.Gateway.client.post('https://example.com', json=x)\n")
    quiet = caller.replace("import helpers\n", "").replace("    helpers.Gateway.client.post('https://example.com', json=x)\n",
                                                         "    print(x)\n")
    root = tmp_path / "app"
    root.mkdir()
    (root / "helpers.py").write_text(gateway)
    (root / "jobs.py").write_text(quiet)
    (root / "other.py").write_text(caller.replace("def push", "def relay"))
    _age(root)
    config, store = Config(root=root), cache.Cache(tmp_path / "cache")
    cached_run.check_paths([str(root)], config, cache=store)
    (root / "jobs.py").write_text(caller)
    cached_run.check_paths([str(root)], config, cache=store)
    (root / "helpers.py").write_text(gateway.replace("client = requests.Session()", "client = None"))
    cached = cached_run.check_paths([str(root)], config, cache=store)
    assert cached.findings == api.check_paths([str(root)], config).findings
    assert [f.code for f in cached.findings] == ["JC501", "JC501"]


def test_a_name_linking_probed_is_linked_again(tmp_path: Path) -> None:
    """Linking rewrites `core...` to `site.core...` only if every name imported under `core`
    lands (`relink`): renaming `notify` makes `core.other.ping` an outside import again, which
    only linking again finds (a re-check replays the recorded rewrites)."""
    files = {
        "site/__init__.py": "",
        "site/core/__init__.py": "",
        "site/core/mailer.py": "def notify(a):\n    return a\n",
        "site/core/other.py": "import requests\n\n\ndef ping(a):\n    requests.post('https://example.com', json=a)\n",
        "site/jobs/__init__.py": "",
        "site/jobs/tasks.py": "from celery import shared_task\n\nfrom core.mailer import notify\nfrom core.other import ping\n\n\n"
                              "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef welcome(address):\n"
                              "    notify(address)\n    ping(address)\n",
    }
    edited = files["site/core/mailer.py"].replace("def notify", "def notify_now")
    cached = _edit_and_compare(tmp_path, files, "site/core/mailer.py", edited)
    assert [f.code for f in cached.findings] == ["JC501"]


def test_a_job_elsewhere_invoking_a_new_op_gets_its_policy(tmp_path: Path) -> None:
    """Dagster: a job in another module invokes `ops.push` with `op_retry_policy`; `push` becomes
    an op only now. That job's recorded walk asked whether `push` was a site: the answer changed,
    so its module is walked again and the op gets the job's policy."""
    files = {
        "ops.py": "import requests\n\n\ndef push():\n    requests.post('https://example.com', json={})\n",
        "jobs.py": "from dagster import RetryPolicy, job\n\nfrom ops import push\n\n\n"
                   "@job(op_retry_policy=RetryPolicy(max_retries=3))\ndef nightly():\n    push()\n",
    }
    edited = "from dagster import op\n" + files["ops.py"].replace("\ndef push", "\n@op\ndef push")
    cached = _edit_and_compare(tmp_path, files, "ops.py", edited)
    assert "JC201" in [f.code for f in cached.findings]


def test_a_policy_read_from_another_module_is_read_again_by_the_sites_that_read_it(tmp_path: Path) -> None:
    """Dagster: ops.py's op takes `retry_policy=POLICY` from policies.py, which its module's site
    read by name; policies.py then gives no retries. Only the module whose site read the name
    (`lookers`) is scanned again, and the retried post is no longer reported."""
    files = {
        "policies.py": "from dagster import RetryPolicy\n\nPOLICY = RetryPolicy(max_retries=3)\n",
        "ops.py": "import requests\nfrom dagster import op\n\nfrom policies import POLICY\n\n\n"
                  "@op(retry_policy=POLICY)\ndef push():\n    requests.post('https://example.com', json={})\n",
        "other.py": "from dagster import op\n\n\n@op\ndef quiet():\n    return 1\n",
    }
    cached = _edit_and_compare(tmp_path, files, "policies.py", files["policies.py"].replace("3", "0"))
    assert "JC201" not in [f.code for f in cached.findings]


def test_a_signal_re_exported_otherwise_sends_to_other_receivers(tmp_path: Path) -> None:
    """The job sends `signals.order_paid`, re-exported from signals/defs.py; the package then
    re-exports another signal under that name, whose receiver does not post. The name was read
    while resolving the job's callees (`origin`): the job is checked again, its callees anew."""
    files = {
        "signals/__init__.py": "from .defs import order_paid\n",
        "signals/defs.py": "from django.dispatch import Signal\n\norder_paid = Signal()\norder_shipped = Signal()\n",
        "receivers.py": "import requests\nfrom django.dispatch import receiver\n\nfrom signals.defs import order_paid, "
                        "order_shipped\n\n\n@receiver(order_paid)\ndef notify(sender, **kwargs):\n"
                        "    requests.post('https://example.com', json={})\n\n\n@receiver(order_shipped)\n"
                        "def log(sender, **kwargs):\n    print(sender)\n",
        "jobs.py": "from celery import shared_task\n\nfrom signals import order_paid\n\n\n"
                   "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef settle(order_id):\n"
                   "    order_paid.send(sender=None, order_id=order_id)\n",
    }
    cached = _edit_and_compare(tmp_path, files, "signals/__init__.py", "from .defs import order_shipped as order_paid\n")
    assert "JC201" not in [f.code for f in cached.findings]


def test_an_operator_given_a_callable_in_an_edited_body_is_found_by_the_scans_again(tmp_path: Path) -> None:
    """Airflow's scan reads every call that gives a `python_callable`: one added to a body makes
    `push` a retried task, which only the scans find (run again from the record)."""
    dag = (
        "from datetime import datetime\n\nimport requests\nfrom airflow import DAG\n"
        "from airflow.operators.python import PythonOperator\n\n\n"
        "def push():\n    requests.post('https://example.com/hook', json={})\n\n\n"
        "def build():\n    with DAG('d', start_date=datetime(2024, 1, 1), default_args={'retries': 2}):\n"
        "        print('building')\n\n\nbuild()\n")
    edited = dag.replace("        print('building')\n",
                         "        print('building')\n        PythonOperator(task_id='push', python_callable=push)\n")
    _edit_and_compare(tmp_path, {"dags.py": dag}, "dags.py", edited)


def test_an_import_that_makes_airflow_index_an_unchanged_call_is_found_by_the_scans_again(tmp_path: Path) -> None:
    """Airflow's index keeps calls under the module's imported names (folders on sys.path):
    importing from `lib` makes the unchanged `lib.push()` in `build` an instance of the task
    `pkg.lib.push` in a DAG that retries. Only the scans find that: the edited module's part of
    the index is made again."""
    files = {
        "pkg/__init__.py": "",
        "pkg/lib.py": "import requests\nfrom airflow.decorators import task\n\n\n@task\ndef push():\n"
                      "    requests.post('https://example.com/hook', json={})\n",
        "pkg/dags.py": "from datetime import datetime\n\nfrom airflow import DAG\n\n\ndef build():\n"
                       "    with DAG('d', start_date=datetime(2024, 1, 1), default_args={'retries': 2}):\n"
                       "        lib.push()\n\n\nbuild()\n",
    }
    edited = files["pkg/dags.py"].replace("from airflow import DAG\n", "from airflow import DAG\nfrom lib import push, missing\n")
    _edit_and_compare(tmp_path, files, "pkg/dags.py", edited)


def test_a_parameter_a_scan_reads_is_not_taken_for_a_body_edit(tmp_path: Path) -> None:
    """arq recognises a `WorkerSettings` by shape: every function it lists is async and takes
    `ctx` first. Renaming that parameter unmakes the job, which only the scans see: the run
    links again (a function they never looked up could change its parameters freely)."""
    files = {
        "jobs.py": "import requests\n\n\nasync def sync_order(ctx, order_id):\n"
                   "    requests.post('https://example.com/orders', json={'id': order_id})\n",
        "worker.py": "from jobs import sync_order\n\n\nclass WorkerSettings:\n    functions = [sync_order]\n",
    }
    edited = files["jobs.py"].replace("(ctx, order_id)", "(context, order_id)")
    _edit_and_compare(tmp_path, files, "jobs.py", edited)


def test_a_parameter_added_to_a_helper(tmp_path: Path) -> None:
    """A helper the scans never looked up gains a parameter, and its caller passes it: a body
    edit, checked again where it reaches."""
    files = {
        "helpers.py": "import requests\n\n\ndef notify(order):\n    return order\n",
        "jobs.py": "from celery import shared_task\n\nfrom helpers import notify\n\n\n"
                   "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef ship(order):\n    notify(order)\n",
    }
    edited = files["helpers.py"].replace(
        "def notify(order):\n    return order\n",
        "def notify(order, hook=None):\n    requests.post(hook or 'https://example.com', json=order)\n")
    _edit_and_compare(tmp_path, files, "helpers.py", edited)


_PLAIN = """\
import functools

import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order_id):
    notify(order_id)


def notify(order_id):
    requests.post("https://example.com/orders", json={"id": order_id})
"""

_ENQUEUE = """\
from redis import Redis
from rq import Queue

q = Queue(connection=Redis())


def schedule():
    q.enqueue('orders.notify', 1)
"""

_RQ_JOBS = """\
import requests
from redis import Redis
from rq import Queue

queue = Queue(connection=Redis())


def notify(order_id):
    requests.post('https://example.com', json={'id': order_id})


def start(order_id):
    print(order_id)
"""

_SIGNALS = """\
import requests
from celery import shared_task
from django.dispatch import Signal

order_paid = Signal()


def notify(sender, **kwargs):
    requests.post("https://example.com/orders", json={})


@shared_task(autoretry_for=(Exception,), max_retries=3)
def settle(order_id):
    order_paid.send(sender=None, order_id=order_id)


def wire(engine):
    print("wiring")
"""

_DAG = """\
from datetime import datetime

import requests
from airflow import DAG
from airflow.decorators import task


@task
def push():
    requests.post("https://example.com/hook", json={})


with DAG("d", start_date=datetime(2024, 1, 1), default_args={"retries": 2}):
    push()
"""

_CHAIN = """\
import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order_id):
    notify.delay(order_id)


@shared_task
def notify(order_id):
    requests.post("https://example.com/orders", json={"id": order_id})
"""

_GATEWAY = """\
import requests
from celery import shared_task


class Gateway:
    client = requests.Session()
    timeout = 10

    def __init__(self):
        self.session = requests.Session()

    def push(self, order_id):
        self.session.post("https://example.com/orders", json={"id": order_id})


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push(order_id):
    Gateway.client.post("https://example.com/orders", json={"id": order_id})


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push_again(order_id):
    Gateway().push(order_id)
"""

# (files, the text replaced in jobs.py, its replacement). Each edit changes the findings, and
# the cached run must give a fresh run's.
_EDITS = {
    # A decorator no framework reads, under the job's task decorator: the job is checked again
    # (its findings move down a line).
    "unread decorator": ({"jobs.py": _PLAIN}, "\ndef push", "\n@functools.lru_cache(maxsize=None)\ndef push"),
    # `@shared_task` on the helper makes it a job of its own: only the scans find that.
    "task decorator added": ({"jobs.py": _PLAIN}, "\ndef notify", "\n@shared_task\ndef notify"),
    # The job's own decorator dropped: the job is gone.
    "task decorator dropped": ({"jobs.py": _PLAIN}, "@shared_task(autoretry_for=(Exception,), max_retries=3)\n", ""),
    # A task another job enqueues is a task no more: `notify.delay` in `push` is no enqueue now,
    # which changes `push`'s effects without any edit reaching it. Linked again.
    "enqueued task undecorated": ({"jobs.py": _CHAIN}, "@shared_task\ndef notify", "def notify"),
    # A new task: a function nothing looked up comes, and the scans find it.
    "task added": ({"jobs.py": _PLAIN}, "\n\ndef notify", "\n\n@shared_task(max_retries=2, autoretry_for=(Exception,))\n"
                   "def ping(order_id):\n    requests.post('https://example.com/ping', json={})\n\n\ndef notify"),
    # A task goes, function and all: the checks looked it up by name (every job's function), so
    # the modules that can name it (this one; none imports it) are checked again.
    "task removed": ({"jobs.py": _CHAIN.replace("notify.delay(order_id)", "print(order_id)")},
                     "\n\n@shared_task\ndef notify(order_id):\n    requests.post(\"https://example.com/orders\", json={\"id\": order_id})\n",
                     "\n"),
    # A function the recorded run looked up and did not find (RQ's string target): the scans
    # find the new job.
    "a function looked up added": ({"jobs.py": _PLAIN, "enqueue.py": _ENQUEUE.replace("orders.notify", "jobs.fetch")},
                                   "\n\ndef notify", "\n\ndef fetch(n):\n    requests.post('https://example.com', json={})"
                                   "\n\n\ndef notify"),
    # A literal `name=` names a task (`Project.job_names`) whatever the decorator: the string
    # RQ enqueues now resolves to `notify`, a new job.
    "literal name=": ({"jobs.py": _PLAIN, "enqueue.py": _ENQUEUE}, "\ndef notify",
                      "\n@registered(name='orders.notify')\ndef notify"),
    # django-q asks for every `append` call and reads only those on its own chains.
    "a list's append": ({"jobs.py": _PLAIN}, "    notify(order_id)\n",
                        "    items = []\n    items.append(order_id)\n    notify(order_id)\n"),
    # `queue.enqueue(notify, ...)` makes `notify` an RQ job.
    "an RQ enqueue": ({"jobs.py": _RQ_JOBS}, "    print(order_id)\n", "    queue.enqueue(notify, order_id)\n"),
    # The DAG's default retries are the task's: its policy changes with no edit of its own.
    "a DAG's default retries": ({"jobs.py": _DAG}, '{"retries": 2}', '{"retries": 0}'),
    # The retried job's `send` now runs `notify`'s post: the call edges change, linked again.
    "a receiver connected": ({"jobs.py": _SIGNALS}, '    print("wiring")\n', "    order_paid.connect(notify)\n"),
    # `engine.connect()` is called `connect` too, and connects no function of the project.
    "engine.connect()": ({"jobs.py": _PLAIN}, "def push(order_id):\n", "def push(order_id):\n    engine.connect()\n"),
    # `Gateway.client.post` resolved through the class attribute: no HTTP client, no post.
    "a class attribute read": ({"jobs.py": _GATEWAY}, "    client = requests.Session()\n", "    client = None\n"),
    # `self.session.post` resolved through `self.session = ...` in `__init__`.
    "a self attribute read": ({"jobs.py": _GATEWAY}, "        self.session = requests.Session()\n",
                              "        self.session = None\n"),
    # A class-based task added (a `Task` subclass): a class nothing looked up comes, and the
    # scans find its `run`.
    "task class added": ({"jobs.py": _PLAIN}, "from celery import shared_task\n",
                         "from celery import Task, shared_task\n\n\nclass Sync(Task):\n"
                         "    autoretry_for = (Exception,)\n\n    def run(self, order_id):\n"
                         "        requests.post('https://example.com/sync', json={})\n"),
    # A method added to a class the checks looked up (`Gateway.client`): the module is checked again.
    "a method added to a class read": ({"jobs.py": _GATEWAY}, "    timeout = 10\n",
                                       "    timeout = 10\n\n    def close(self):\n        pass\n"),
    # A field added to a class nothing reads it of (the jobs' findings move down a line).
    "a class attribute unread": ({"jobs.py": _GATEWAY}, "    timeout = 10\n", "    timeout = 10\n    note = 'none'\n"),
}


def test_an_unread_decorator_then_a_new_task_elsewhere(tmp_path: Path) -> None:
    """An unread decorator added above a task's own, then a task added in another module: each
    cached run equals a fresh one."""
    root = tmp_path / "app"
    root.mkdir()
    jobs, other = root / "jobs.py", root / "other.py"
    jobs.write_text(_PLAIN)
    other.write_text(_PLAIN)
    _age(root)
    config, store = Config(root=root), cache.Cache(tmp_path / "cache")
    cached_run.check_paths([str(root)], config, cache=store)
    jobs.write_text(_PLAIN.replace("@shared_task(", "@functools.lru_cache(maxsize=None)\n@shared_task("))
    cached_run.check_paths([str(root)], config, cache=store)
    other.write_text(_PLAIN.replace("\ndef notify", "\n@shared_task\ndef notify"))
    cached = cached_run.check_paths([str(root)], config, cache=store)
    assert cached.findings == api.check_paths([str(root)], config).findings
    assert {f.function for f in cached.findings if f.code == "JC201"} == {"jobs.push", "other.push"}


def test_moved_lines_then_a_new_op_elsewhere(tmp_path: Path) -> None:
    """Lines of an op module moved, then an op added in another module: each cached run equals a
    fresh one."""
    ops = ("import requests\nfrom dagster import RetryPolicy, op\n\n\n@op(retry_policy=RetryPolicy(max_retries=2))\n"
           "def push():\n    requests.post('https://example.com', json={})\n\n\ndef helper():\n    return 1\n")
    root = tmp_path / "app"
    root.mkdir()
    (root / "ops.py").write_text(ops)
    (root / "other.py").write_text(ops)
    _age(root)
    config, store = Config(root=root), cache.Cache(tmp_path / "cache")
    cached_run.check_paths([str(root)], config, cache=store)
    (root / "ops.py").write_text("\n\n\n" + ops)
    cached_run.check_paths([str(root)], config, cache=store)
    (root / "other.py").write_text(ops.replace("\ndef helper", "\n@op\ndef helper"))
    cached = cached_run.check_paths([str(root)], config, cache=store)
    assert cached.findings == api.check_paths([str(root)], config).findings


@pytest.mark.parametrize("case", list(_EDITS))
def test_each_targeted_edit_gives_a_fresh_runs_findings(tmp_path: Path, case: str) -> None:
    files, old, new = _EDITS[case]
    assert old in files["jobs.py"]
    _edit_and_compare(tmp_path, files, "jobs.py", files["jobs.py"].replace(old, new))


_COMMANDS = {
    "shop/__init__.py": "",
    "shop/management/__init__.py": "",
    "shop/management/commands/__init__.py": "",
    "shop/management/commands/send_digest.py": (
        "import requests\nfrom django.core.management.base import BaseCommand\n\n\n"
        "class Command(BaseCommand):\n    def handle(self, *args, **options):\n"
        "        requests.post('https://mail.example/digest')\n"),
}


def test_a_crontab_line_edited_schedules_the_command_it_names(tmp_path: Path) -> None:
    """A crontab file is read like a module: editing it (the folder's entries unchanged) is seen."""
    files = {**_COMMANDS, "crontab": "0 7 * * * python manage.py other_command\n"}
    cached = _edit_and_compare(tmp_path, files, "crontab", "0 7 * * * python manage.py send_digest\n")
    assert "JC501" in [f.code for f in cached.findings]


def test_a_deployment_note_added_beside_the_code_is_read(tmp_path: Path) -> None:
    """A new file that may hold crontab lines changes its folder's entries: the run is made again."""
    cached = _edit_and_compare(tmp_path, dict(_COMMANDS), "DEPLOY.md",
                               "Cron:\n\n    */15 * * * * cd /srv && python manage.py send_digest\n")
    assert "JC501" in [f.code for f in cached.findings]


_DAEMON = ("#!/usr/bin/env python3\nimport time\nimport requests\n\n\ndef main():\n    while True:\n"
           "        requests.post('https://mail.example/poll')\n        time.sleep(60)\n\n\n"
           "if __name__ == '__main__':\n    main()\n")


def test_a_script_with_no_extension_added_beside_the_code_is_read(tmp_path: Path) -> None:
    """A new file with no extension changes its folder's entries: the run is made again."""
    cached = _edit_and_compare(tmp_path, {**_COMMANDS, "bin/notes": "plain text\n"}, "bin/poller", _DAEMON)
    assert any(f.path.endswith("bin/poller") for f in cached.findings)


def test_a_file_with_no_extension_that_comes_to_run_python_is_read(tmp_path: Path) -> None:
    """Its first line decided it was no script: editing it (the folder's entries unchanged) is seen."""
    files = {**_COMMANDS, "bin/poller": "#!/bin/sh\nexec poll\n"}
    cached = _edit_and_compare(tmp_path, files, "bin/poller", _DAEMON)
    assert any(f.path.endswith("bin/poller") for f in cached.findings)
