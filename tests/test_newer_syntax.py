"""Source in the syntax of a newer Python than the one running jobcheck is still analysed, and so is
the code of Python 3.6 and earlier that uses `async` and `await` as names; every line and column
reported is the original file's (analysis/parse.py)."""

from __future__ import annotations

import ast
import sys

import pytest

from jobcheck import api
from jobcheck.analysis.parse import parse
from jobcheck.config import Config

NEWER = {
    "type alias (3.12)": "type Alias[T] = list[T]\n",
    "generic function (3.12)": "def f[T: int = str](x: T) -> T:\n    return x\n",
    "generic class (3.12)": "class C[T](Base):\n    pass\n",
    "type parameters over lines": "def f[\n    T,  # a comment\n    U,\n](x):\n    return x\n",
    "f-string quotes (3.12)": 'x = f"{a["b"]}:{b!r:>{w}} {c=}"\n',
    "nested f-strings (3.12)": 'x = f"{f"{a["b"]}"}"\n',
    "f-string over lines (3.12)": 'x = f"{a\n  + b["k"]}"\n',
    "t-string (3.14)": 'y = t"hi {x["a"]}"\n',
    "except without brackets (3.14)": "try:\n    pass\nexcept A, B:\n    pass\n",
    "except star (3.11)": "try:\n    pass\nexcept* E:\n    pass\n",
}


def _findings_of(tmp_path, name: str, source: str) -> list[tuple[str, int]]:
    """(code, line) of every finding on a file of `source`; none may say jobcheck could not read it."""
    (tmp_path / name).write_text(source, encoding="utf-8")
    report = api.check_paths([str(tmp_path)], Config(root=tmp_path), api.Selection(select=["ALL"]))
    found = sorted((f.code, f.line) for f in report.findings)
    assert not [c for c, _ in found if c in ("JC000", "JC002")]
    return found


@pytest.mark.parametrize("source", NEWER.values(), ids=NEWER.keys())
def test_newer_syntax_parses_on_the_same_lines(source: str) -> None:
    tree = parse(source)
    assert tree.body
    last = max(getattr(n, "end_lineno", 0) or 0 for n in ast.walk(tree))
    assert last == source.count("\n")


def test_a_real_syntax_error_keeps_its_message() -> None:
    with pytest.raises(SyntaxError) as exc:
        parse("def f(:\n    pass\n")
    with pytest.raises(SyntaxError) as native:
        ast.parse("def f(:\n    pass\n")
    assert (exc.value.msg, exc.value.lineno) == (native.value.msg, native.value.lineno)


def test_columns_of_what_follows_are_the_originals() -> None:
    source = 'key = f"{order["id"]}-{now()}"; send(key)\n'
    call = next(n for n in ast.walk(parse(source)) if isinstance(n, ast.Call) and n.func.id == "send")
    assert call.col_offset == source.index("send(")
    now = next(n for n in ast.walk(parse(source)) if isinstance(n, ast.Call) and n.func.id == "now")
    assert now.col_offset == source.index("now()")


def test_a_job_written_in_newer_syntax_is_checked(tmp_path) -> None:
    found = _findings_of(tmp_path, "tasks.py", (
        "import requests\n"
        "from celery import shared_task\n"
        "\n"
        "type Payload = dict[str, str]\n"
        "\n"
        "\n"
        "@shared_task(autoretry_for=(Exception,), max_retries=3, retry_backoff=True)\n"
        "def push[T](order: T) -> None:\n"
        '    requests.post(f"https://erp.example/{order["id"]}", json={"o": f"{order["id"]}"})\n'
    ))
    assert ("JC201", 9) in found
    assert ("JC501", 8) in found


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running Python reads PEP 701 itself")
def test_older_python_cannot_read_it_alone() -> None:
    with pytest.raises(SyntaxError):
        ast.parse(NEWER["f-string quotes (3.12)"])


OLDER = {
    "async as a keyword argument": "def fetch(url, async=False):\n    if async:\n        return url\n",
    "async as an attribute": "def f(self):\n    return self.async.result\n",
    "await as a name": "await = 3\nprint(await)\n",
    "async keyword beside async names": (
        "async def g(h, a):\n    await h()\n    async with a as b:\n        pass\n\n"
        "def fetch(async=True):\n    return async\n"),
}


@pytest.mark.parametrize("source", OLDER.values(), ids=OLDER.keys())
def test_async_and_await_as_names_parse_on_the_same_lines(source: str) -> None:
    with pytest.raises(SyntaxError):
        ast.parse(source)
    tree = parse(source)
    assert tree.body
    assert max(getattr(n, "end_lineno", 0) or 0 for n in ast.walk(tree)) == source.count("\n")


def test_async_keyword_stays_a_keyword_beside_async_names() -> None:
    tree = parse(OLDER["async keyword beside async names"])
    kinds = [type(n).__name__ for n in tree.body]
    assert kinds == ["AsyncFunctionDef", "FunctionDef"]
    assert any(isinstance(n, ast.Await) for n in ast.walk(tree.body[0]))
    assert tree.body[1].args.args[0].col_offset == OLDER["async keyword beside async names"].splitlines()[5].index("async")


def test_a_job_in_python_36_code_is_checked(tmp_path) -> None:
    found = _findings_of(tmp_path, "worker.py", (
        "import time\n"
        "import requests\n"
        "\n"
        "\n"
        "def fetch(url, async=False):\n"
        "    return requests.post(url, data={'async': async})\n"
        "\n"
        "\n"
        "def run(self):\n"
        "    while not self._quit:\n"
        "        fetch(self.url, async=True)\n"
        "        time.sleep(1)\n"
    ))
    assert ("JC501", 9) in found


def test_async_names_after_a_form_feed_are_respelt_on_their_own_line() -> None:
    source = "x = 1\n\x0c\ny = 2\nasync = 3\nprint(async)\n"
    tree = parse(source)
    assigned = [n.targets[0] for n in tree.body if isinstance(n, ast.Assign)]
    assert [(t.id, t.lineno, t.col_offset) for t in assigned] == [("x", 1, 0), ("y", 3, 0), ("asyn_", 4, 0)]


def test_a_huge_string_annotation_leaves_the_file_analysed(tmp_path) -> None:
    found = _findings_of(tmp_path, "tasks.py", (
        "import requests\n"
        "from celery import shared_task\n"
        "\n"
        f'def helper() -> "{"-" * 10_000}x":\n'
        "    return None\n"
        "\n"
        f'def other(arg: "{"a." * 100_000}b"):\n'
        "    return arg\n"
        "\n"
        "@shared_task(autoretry_for=(Exception,), max_retries=3)\n"
        "def push(order):\n"
        '    requests.post("https://erp.example/orders", json=order)\n'
    ))
    assert ("JC201", 12) in found
