"""Big modules (issue 19): summarising is linear in the file's size, and a huge data literal is
read without building its `ast` (`analysis/big_literals.py`)."""

from __future__ import annotations

import ast
import tracemalloc

from jobcheck.analysis import big_literals, summary
from jobcheck.analysis.source import summarize_source

RECORD = '    "key_{i:05d}": {{"id": {i}, "name": "item {i}", "tags": ["a", "b"], "limits": (1, -2.5e3), "on": True}},\n'


def data_module(records: int, before: str = "", inside: str = "", after: str = "") -> str:
    body = "".join(RECORD.format(i=i) for i in range(records))
    return f'"""Fixtures."""\nimport requests\n{before}DATA = {{\n{inside}{body}}}\n{after}'


AFTER = '''

def send(order):  # é: columns count UTF-8 bytes
    requests.post("https://example.com/orders", json={"id": order.id, "idempotency_key": order.key})
'''


def plain_summary(text: str, module: str):
    """The summary as it is without eliding anything."""
    return summary.Summarizer(module, f"{module}.py").run(ast.parse(text))


def test_a_huge_data_literal_is_not_built_and_nothing_after_it_moves():
    text = data_module(2000, after=AFTER)
    assert len(text) > big_literals.MIN_SIZE
    tracemalloc.start()
    lean = summarize_source(text, "data.py", "data")
    peak_lean = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    full = plain_summary(text, "data")
    peak_full = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert lean.error is None
    assert lean.assigns["DATA"][0] == ["other"] and full.assigns["DATA"][0][0] == "dict"
    assert peak_lean < peak_full / 3  # a chunk at a time; the whole tree grows with the file
    # Everything but the literal's own Value is as a full parse gives it: lines, columns, calls.
    assert lean.functions["data.send"] == full.functions["data.send"]
    assert lean.imports == full.imports and lean.symbols == full.symbols


def test_the_literal_may_span_one_line_and_carry_comments_and_odd_strings():
    body = ", ".join(f'{i}: (r"\\d{i}", b"\\x00", 0x{i:x}, 1_000.5j, None, -{i})' for i in range(6000))
    text = f"import requests\nTABLE: dict[int, tuple] = {{{body}}}  # generated\nrequests.post('x')\n"
    text = text.replace("(r", "  # a comment\n  (r", 3).replace("1_000.5j", "'''two\nlines'''", 2)
    lean = summarize_source(text, "t.py", "t")
    full = plain_summary(text, "t")
    assert lean.assigns["TABLE"][0] == ["other"]
    assert lean.functions["t.<module>"].events == full.functions["t.<module>"].events


def test_a_syntax_error_inside_the_literal_is_still_reported_where_python_reports_it():
    text = data_module(2000, inside='    "broken": {"id": 1,, "x": 2},\n')
    got = summarize_source(text, "data.py", "data")
    try:
        ast.parse(text)
    except SyntaxError as exc:
        expected = exc.lineno
    assert got.error_kind == "parse-error" and got.error_line == expected
    mixed = data_module(2000, after="").replace("DATA = {\n", 'DATA = {\n    "set element",\n', 1)
    assert summarize_source(mixed, "data.py", "data").error_kind == "parse-error"


def test_literals_with_code_in_them_are_summarised_as_before():
    call = data_module(2000, inside='    "schedule": crontab(minute=5),\n')  # a call: settings to read
    assert summarize_source(call, "c.py", "c").assigns == plain_summary(call, "c").assigns
    nested = data_module(2000, inside='    "idempotency_key": make_key(),\n')
    assert summarize_source(nested, "c.py", "c").functions == plain_summary(nested, "c").functions
    small = data_module(50)  # below the size where eliding pays
    assert summarize_source(small, "c.py", "c").assigns == plain_summary(small, "c").assigns


def test_a_look_alike_inside_a_string_is_left_alone():
    text = "DOC = '''\n" + data_module(2000) + "'''\nimport requests\nrequests.post('x')\n"
    _, placeholders = big_literals.elide(text)
    assert placeholders  # the scan cannot tell it is inside a string ...
    got = summarize_source(text, "s.py", "s")
    assert got.error is None and got.assigns == plain_summary(text, "s").assigns  # ... the parse confirms it


def test_module_level_imports_do_not_copy_the_name_table():
    """8,000 jobs each with its own imports took 10 s: every import copied the module's names."""
    jobs = 3000
    text = "".join(f"from app.s{i} import h{i}\nimport app.m{i}\n\ndef job_{i}(x):\n    h{i}(x)\n" for i in range(jobs))
    writes = 0

    class Counting(dict):
        def __setitem__(self, key, value):
            nonlocal writes
            writes += 1
            dict.__setitem__(self, key, value)

    summarizer = summary.Summarizer("m", "m.py")
    summarizer.mod.imports = Counting()
    mod = summarizer.run(ast.parse(text))
    assert mod.imports["h2999"] == "app.s2999.h2999" and mod.imports["app"] == "app"
    assert writes <= 6 * jobs  # a copy of the table per import would be millions
