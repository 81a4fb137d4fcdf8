"""Retry loops written by hand: a loop whose body tries the work, leaves the loop when it
succeeds, and goes round again when it fails:

    for attempt in range(5):                   while True:
        try:                                       try:
            response = post(url, json=body)            send(message)
            response.raise_for_status()                break
            return response                        except SMTPException:
        except RequestException:                       time.sleep(30)
            time.sleep(2 ** attempt)

Read from the syntax alone, by three marks together: one `try` among the loop's statements, a way
out of the loop when it succeeds (`break` or `return` in its body or `else`, or a `break` after it
that a handler's `continue` skips), and a handler that does not always leave the loop (it may leave
on its last attempt: `if attempt == 4: raise`). A loop over items (`for order in orders:`) is not a
retry loop: only `range(...)`, a literal tuple or list of delays, `itertools.count()` and `while`
loops are attempts. A per-item `try` with no way out on success is not one either.

How many attempts: `range(N)` and a literal sequence give the count; a `while` loop's own test
(`while attempts < 5`) or an exit in a handler (`if attempt > 5: raise`) bounds it with a count
unknown; `while True:` (or `while not sent:`) with no exit in any handler, and `itertools.count()`,
never stops. What it waits between attempts: a sleep in a handler or after the `try`, growing
(`2 ** attempt`, `delay *= 2`) or constant; none at all is a retry at once.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

_LEAVES = (ast.Break, ast.Return)
_EXITS = (ast.Break, ast.Return, ast.Raise)
_NESTED = (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@dataclass(frozen=True, slots=True)
class LoopShape:
    """What the syntax of one retry loop says."""

    try_node: ast.Try | None  # None: the loop tries a call and leaves when it returns true
    header: str  # as written: "for attempt in range(5)"
    count: int | None  # retries after the first attempt, when known
    count_from: str | None  # what holds a count not known ("MAX_TRIES", "attempts < limit")
    forever: bool  # nothing ever stops it
    on_result: bool  # it also goes round when the `try` ends without leaving (`if response.ok: return`)
    backoff: str  # "exponential" | "constant" | "none"
    delay: float | None  # seconds before the second attempt, where written as a number


def retry_loop(loop: ast.For | ast.AsyncFor | ast.While) -> LoopShape | None:
    if loop.orelse:
        return None
    tries = [s for s in loop.body if isinstance(s, ast.Try) and s.handlers]
    if len(tries) == 1:
        return _trying(loop, tries[0])
    return _until_it_works(loop) if not tries else None


def _trying(loop, attempt: ast.Try) -> LoopShape | None:
    """`for attempt in range(5): try: ...; return except E: sleep(...)`."""
    index = loop.body.index(attempt)
    before, after = loop.body[:index], loop.body[index + 1:]
    retrying = [h for h in attempt.handlers if not _always_exits(h.body)]
    if not retrying:
        return None
    leaves_on_success = _leaves(attempt.body + attempt.orelse) or _sets_the_test(loop, attempt.body + attempt.orelse) or (
        any(isinstance(s, _LEAVES) for s in after) and any(_continues(h.body) for h in retrying))
    if not leaves_on_success:
        return None
    failing = [s for h in retrying for s in h.body] + after
    bound = _bound(loop, failing)
    if bound is None:
        return None
    waits = _sleeps(failing) + _sleeps(before)
    on_result = not any(isinstance(s, _LEAVES) for s in attempt.body + attempt.orelse + after) \
        and not _sets_the_test(loop, attempt.body + attempt.orelse)
    return _shape(loop, attempt, bound, on_result, waits)


def _until_it_works(loop) -> LoopShape | None:
    """`for _ in range(3): if post_succeeded(...): return`: no `try`, a call whose true result
    leaves the loop (a call whose false result leaves it, `if not next_page(): break`, is work
    done until there is none, not a retry; a call given the loop's variable is one per item)."""
    gates = [s for s in loop.body if isinstance(s, ast.If) and not s.orelse and len(s.body) == 1
             and isinstance(s.body[0], _LEAVES) and isinstance(_unawaited(s.test), ast.Call)]
    if len(gates) != 1 or any(isinstance(s, _EXITS) for s in loop.body):
        return None
    counters = _counters(loop)
    if counters & {n.id for n in ast.walk(gates[0].test) if isinstance(n, ast.Name)}:
        return None
    rest = [s for s in loop.body if s is not gates[0]]
    bound = _bound(loop, rest)
    if bound is None:
        return None
    return _shape(loop, None, bound, True, _sleeps(loop.body))


def _shape(loop, attempt, bound, on_result: bool, waits: list) -> LoopShape:
    count, count_from, forever = bound
    backoff, delay = _backoff(waits, loop)
    header = ast.unparse(loop).split("\n", 1)[0].rstrip(":")
    return LoopShape(attempt, header, count, count_from, forever, on_result, backoff, delay)


def _unawaited(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Await) else node


def _counters(loop) -> set[str]:
    return {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} if isinstance(loop, (ast.For, ast.AsyncFor)) else set()


def _sets_the_test(loop, statements: list) -> bool:
    """`while not sent: try: send(); sent = True`: the body sets a name the loop's test reads."""
    if not isinstance(loop, ast.While):
        return False
    tested = {n.id for n in ast.walk(loop.test) if isinstance(n, ast.Name)}
    return any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id in tested for t in n.targets)
               for n in _walk(statements))


def _walk(statements: list):
    """The nodes of these statements, not descending into nested loops or definitions (whose
    `break`, `return` and `continue` are their own)."""
    stack = list(reversed(statements))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _NESTED):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _leaves(statements: list) -> bool:
    return any(isinstance(n, _LEAVES) for n in _walk(statements))


def _continues(statements: list) -> bool:
    return any(isinstance(n, ast.Continue) for n in _walk(statements))


def _always_exits(statements: list) -> bool:
    """Does this block leave the loop whatever happens (a `raise`, `return` or `break` among its
    own statements, not under an `if`)?"""
    return any(isinstance(s, _EXITS) for s in statements)


def _exits_sometimes(failing: list) -> bool:
    """A way out after failures: a `raise` or `return` anywhere in what runs then, or a `break`
    under a condition (a top-level `break` after the `try` is the way out on success)."""
    return any(isinstance(n, (ast.Raise, ast.Return)) or (isinstance(n, ast.Break) and n not in failing)
               for n in _walk(failing))


def _bound(loop, failing: list) -> tuple[int | None, str | None, bool] | None:
    """(retries when known, what holds the count otherwise, never stops), or None when the loop
    does not count attempts (a loop over items). `failing`: the statements that run when an
    attempt fails, where a way out bounds a `while True:` loop."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        it = loop.iter
        if isinstance(it, (ast.Tuple, ast.List)):
            return max(len(it.elts) - 1, 0), None, False
        if isinstance(it, ast.Call) and _name(it.func) in ("range", "count") and not it.keywords:
            if _name(it.func) == "count":
                return None, None, True
            args = it.args
            if len(args) == 1 and isinstance(args[0], ast.Constant) and type(args[0].value) is int:
                return max(args[0].value - 1, 0), None, False
            if len(args) == 2 and all(isinstance(a, ast.Constant) and type(a.value) is int for a in args):
                return max(args[1].value - args[0].value - 1, 0), None, False
            return None, ast.unparse(args[-1] if len(args) < 3 else args[1]) if args else "range()", False
        return None
    test = loop.test
    forever = (isinstance(test, ast.Constant) and bool(test.value)) or (
        isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name))
    if not forever:
        return None, ast.unparse(test), False
    if _exits_sometimes(failing):
        return None, "an exit when it fails", False
    return None, None, True


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _sleeps(statements: list) -> list[ast.Call]:
    return [n for n in _walk(statements) if isinstance(n, ast.Call) and _name(n.func).lower().endswith("sleep")]


def _backoff(sleeps: list[ast.Call], loop) -> tuple[str, float | None]:
    if not sleeps:
        return "none", 0.0
    arg = sleeps[0].args[0] if sleeps[0].args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool):
        return "constant", float(arg.value)
    delays = _listed_delays(arg, loop)
    if delays:  # `for delay in (1, 5, 30): ... sleep(delay)`
        return ("constant" if len(set(delays)) == 1 else "linear"), delays[0]
    if arg is not None and _grows(arg, loop):
        doubles = any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Pow, ast.LShift)) for n in ast.walk(arg)) or any(
            isinstance(n, ast.AugAssign) and isinstance(n.op, (ast.Mult, ast.Pow, ast.LShift)) for n in ast.walk(loop))
        return ("exponential" if doubles else "linear"), None
    return "constant", None  # a name or a setting: a wait, not known to grow


def _listed_delays(arg: ast.expr | None, loop) -> list[float]:
    """The delays a loop over a literal sequence of numbers sleeps, the loop's name slept on."""
    if not (isinstance(arg, ast.Name) and isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name)
            and loop.target.id == arg.id and isinstance(loop.iter, (ast.Tuple, ast.List))):
        return []
    values = [e.value for e in loop.iter.elts if isinstance(e, ast.Constant)]
    if len(values) != len(loop.iter.elts) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return []
    return [float(v) for v in values]


def _grows(arg: ast.expr, loop) -> bool:
    """`2 ** attempt`, `delay * attempt`, `backoff(attempt)`, or a name the loop multiplies."""
    counters = _counters(loop)
    grown = {n.target.id for n in ast.walk(loop) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
             and isinstance(n.op, (ast.Mult, ast.Pow, ast.LShift, ast.Add))}
    used = {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)}
    return bool(used & (counters | grown))
