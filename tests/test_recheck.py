"""Re-checking only what an edit of function bodies can change (`jobcheck.recheck`): after every
edit the cached run must give exactly what a run without a cache gives."""

from __future__ import annotations

import ast
import os
import random
import shutil
import time
from pathlib import Path

from jobcheck import api, cache, incremental
from jobcheck.config import Config, load

from .testdata_support import TESTDATA

SEED = 29


def _age(root: Path, seconds: int = 100) -> None:
    past = time.time_ns() - seconds * 1_000_000_000
    for path in [root, *root.rglob("*")]:
        os.utime(path, ns=(past, past))


def _body_edit(text: str, rng: random.Random) -> str:
    """One edit inside the body of a random function: a statement inserted (a call that posts,
    one that prints, a call of a function of the module or of a name it imports, a fresh key),
    dropped, or doubled. Lines below move. An edit that would break the file is not made."""
    edited = _statement_edit(text, rng)
    try:
        ast.parse(edited)
    except SyntaxError:
        return text
    return edited


def _statement_edit(text: str, rng: random.Random) -> str:
    tree = ast.parse(text)
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
    kind = rng.choice(["insert", "insert", "insert", "drop", "double"])
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


def _sources():
    for project in sorted(p for p in (TESTDATA / "projects").iterdir() if p.is_dir()):
        yield project, None
    for source in sorted((TESTDATA / "rules").rglob("*.py")) + sorted((TESTDATA / "frameworks").rglob("*.py")):
        yield None, source


def test_rechecked_findings_equal_a_fresh_run_across_random_body_edits(tmp_path: Path) -> None:
    """Seeded random edits of function bodies, one after another, in every testdata project and
    rule and framework file: each run with the cache gives what a run without one gives, and
    most of those runs re-check only what the edit reaches instead of linking the project."""
    rng = random.Random(SEED)
    ways: dict[str, int] = {}
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
        incremental.check_paths([str(root)], config, cache=store)
        files = sorted(root.rglob("*.py"))
        for _ in range(6):
            path = rng.choice(files)
            text = path.read_text(encoding="utf-8")
            edited = _body_edit(text, rng)
            path.write_text(edited, encoding="utf-8")
            cached = incremental.check_paths([str(root)], config, cache=store)
            fresh = api.check_paths([str(root)], config)
            assert cached.findings == fresh.findings, (path.name, edited)
            ways[cached.reused or "re-linked"] = ways.get(cached.reused or "re-linked", 0) + 1
    print(ways)
    assert ways.get("rechecked", 0) >= 140, ways


def test_a_recheck_fills_memos_on_call_cycles_as_a_full_run_does(tmp_path: Path) -> None:
    """`a` and `b` call each other. A full run asks for `first`'s effects first, and the walk
    through the cycle ends where it started: `b`'s effects are remembered without `a`'s post.
    `second` then reads that memo. Re-checking `second` alone would walk from `b` and find the
    post; every function that reaches a cycle is checked again, in the full run's order, so the
    re-check says what the full run says."""
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
    incremental.check_paths([str(root)], config, cache=store)
    (root / "jobs.py").write_text(jobs.replace("    b(x)\n", "    print(x)\n    b(x)\n"))
    cached = incremental.check_paths([str(root)], config, cache=store)
    assert cached.reused == "rechecked"
    assert cached.findings == api.check_paths([str(root)], config).findings
