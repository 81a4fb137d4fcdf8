"""Module-level names bound in more than one place, for the summariser (`analysis.summary`).

Two shapes keep one file's name from having a single obvious binding:

- a conditional import with a fallback, `try: from celery import shared_task` /
  `except ImportError: def shared_task(f): return f`, or `if settings.TASKS: from celery import
  shared_task` / `else: from .utils import noop as shared_task`, or an `if` with no `else` after
  the import (`if not HAS_CELERY: shared_task = noop_task`), whose other arm is the binding before
  it. The fallback is a shim for when the library is missing; the code is written for the library,
  so the library's binding is the one read (`library_arm`);
- a module global set inside a function, `scheduler = None` at module level and
  `def setup(): global scheduler; scheduler = BackgroundScheduler()`: every function of the
  module uses what that assignment made (`global_assignments`).

Imports nothing else from jobcheck: its source is part of every summary's cache key.
"""

from __future__ import annotations

import ast

# A binding as one arm of a conditional left it: (resolved name or type, bound by assignment?).
Binding = tuple


def is_library(value: str | None, own_top: str, imported_tops: set[str]) -> bool:
    """Does a resolved name denote something of an imported library (not of this application)?"""
    if not value or value[0] == "@":
        return False
    top = value.partition(".")[0].partition("(")[0]
    return top != own_top and top in imported_tops


def library_arm(arms: list[dict], current: dict, own_top: str, imported_tops: set[str], first_wins: bool = False) -> dict:
    """The bindings to keep after a module-level `if`/`try`: for each name some arm bound, the
    first library binding when the one the walk ended with is the application's own (a shim, a
    no-op, `None`). Names already bound to a library, or bound to nothing of one, are left out.
    With `first_wins` (a `try` whose handlers catch `ImportError`), the body's library binding is
    kept over a handler's: the body imports what the code is written for, the handlers where older
    versions kept it (`try: from netbox.jobs import JobRunner` / `except ImportError: from
    extras.jobs import Job as JobRunner`)."""
    out = {}
    if first_wins and arms:
        for name, binding in arms[0].items():
            if is_library(binding[0], own_top, imported_tops) and current.get(name) != binding[0]:
                out[name] = binding
    for arm in arms:
        for name, binding in arm.items():
            if name in out or is_library(current.get(name), own_top, imported_tops):
                continue
            if is_library(binding[0], own_top, imported_tops):
                out[name] = binding
    return out


def global_assignments(body: list) -> dict[str, list[tuple[ast.expr, tuple]]]:
    """name -> the values functions assign to it under `global name`, each with the assigning
    function's parameters (a value built from a parameter is not the module's to resolve)."""
    found: dict[str, list] = {}
    for node in _statements(body):
        if type(node) not in _FUNCTIONS:
            continue
        own = list(_statements(node.body, into_definitions=False))
        names = {n for s in own if type(s) is ast.Global for n in s.names}
        if not names:
            continue
        args = node.args
        params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a)
        for s in own:
            targets = s.targets if type(s) is ast.Assign else [s.target] if type(s) is ast.AnnAssign else ()
            for t in targets:
                if type(t) is ast.Name and t.id in names and s.value is not None:
                    found.setdefault(t.id, []).append((s.value, params))
    return found


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# The statement lists inside each compound statement (the others hold none).
_BLOCKS = {ast.FunctionDef: ("body",), ast.AsyncFunctionDef: ("body",), ast.ClassDef: ("body",),
           ast.If: ("body", "orelse"), ast.For: ("body", "orelse"), ast.AsyncFor: ("body", "orelse"),
           ast.While: ("body", "orelse"), ast.With: ("body",), ast.AsyncWith: ("body",),
           ast.Try: ("body", "handlers", "orelse", "finalbody"), ast.ExceptHandler: ("body",),
           ast.Match: ("cases",), ast.match_case: ("body",)}
if hasattr(ast, "TryStar"):
    _BLOCKS[ast.TryStar] = _BLOCKS[ast.Try]
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _statements(body: list, into_definitions: bool = True):
    """Every statement, nested ones included (expressions are not entered); without
    `into_definitions`, not those of the functions and classes defined there."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        fields = _BLOCKS.get(type(node))
        if fields is None or (not into_definitions and type(node) in _DEFINITIONS):
            continue
        for field in reversed(fields):
            stack.extend(reversed(getattr(node, field)))
