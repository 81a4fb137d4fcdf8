"""Retry loops written by hand: a loop whose body tries the work, leaves the loop when it
succeeds, and goes round again when it fails:

    for attempt in range(5):                   while True:
        try:                                       try:
            response = post(url, json=body)            send(message)
            response.raise_for_status()                break
            return response                        except SMTPException:
        except RequestException:                       time.sleep(30)
            time.sleep(2 ** attempt)

Read from the syntax alone, by three marks together: one `try` among the loop's statements whose
failure may go round (others may check and leave: `except ReadOnly: return uid`), a way
out of the loop when it succeeds (a `break` or `return` among the statements of its body or `else`,
or under an `if` that ends its body, `if response.ok: return response`; a flag the loop's test
reads, `sent = True`; a way out after the `try` that a handler's `continue` skips; or an `if` after the
`try` reading a flag a handler sets, `should_retry = True`, one arm leaving and the other going round; not where what
follows the `try` also goes round and ends waiting, `if processed: continue` ... `wait(poll)`: a worker's round), and a
handler that does not always leave the loop (it may leave on its last attempt: `if attempt == 4:
raise`). A loop that takes an item and then works on it (`msg = queue.get(); if msg is None:
break; post(msg)`) leaves on what it took, not on success: no retry loop; nor is one that asks a
person each round (`url = input("node URL: ")`): a form asking again. Nor is a loop over items
(`for order in orders:`, `for host in HOSTS:`, `for i in range(len(items))` indexing them): only
`range(...)`, a tuple or list of delays (literal, or any sequence whose element each round
sleeps: `for delay in delays: ... sleep(delay)`), `itertools.count()` and `while` loops over
attempts count.

A loop with no `try` that tries one call until it returns true (`for _ in range(3): if
posted(...): return`) is a retry loop too, when that call is the only work in it (the rest waits or
logs): a worker loop that checks a stop flag (`if stop.is_set(): break`) before its work is not.

How many attempts: `range(...)` and a literal sequence give the count; a `while` loop's own test
over a counter (`while attempts < 5`, `while retries:` counted down) or an exit when an attempt
fails (`if attempt > 5: raise`, or a give-up checked before each attempt: `if time.time() - start
>= timeout: raise`) bounds it with a count unknown, not one under an `if` that reads only settings
(`if self.propagate_errors: raise`: with the setting off, failures go round for ever); `while
True:`, a flag (`while not sent:`, `while self.running:`) or `itertools.count()` with no such exit
never stops. What it waits
between attempts: a sleep (or an event's `wait(timeout)`) in a handler, before or after the `try`,
growing (`2 ** attempt`, `delay *= 2`) or constant; none at all is a retry at once.

tenacity's retrying block is a retry loop too, its policy written in the call it loops over:

    for attempt in Retrying(stop=stop_after_attempt(5), wait=wait_exponential()):
        with attempt:
            post(url, json=body)

Any failure inside `with attempt:` sends it round (as a loop that tries a call until it works), or
those `retry=retry_if_exception_type(...)` names; no `stop` (or `stop_never`) retries forever, no
`wait` at once.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

_LEAVES = (ast.Break, ast.Return)
_EXITS = (ast.Break, ast.Return, ast.Raise)
_NESTED = (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_QUIET = ("debug", "info", "warning", "warn", "error", "exception", "log", "print")  # logging: no work
# Asking a person (`input()`, click's, typer's and prompt_toolkit's `prompt`).
_PROMPTS = ("input", "raw_input", "getpass", "prompt", "prompt_async")


@dataclass(frozen=True, slots=True)
class LoopShape:
    """What the syntax of one retry loop says."""

    try_node: ast.Try | None  # None: the loop tries a call and leaves when it returns true
    header: str  # as written: "for attempt in range(5)"
    count: int | None  # retries after the first attempt, when known
    count_from: str | None  # what holds a count not known ("MAX_TRIES", "attempts < limit")
    forever: bool  # nothing ever stops it
    on_result: bool  # it also goes round when the `try` ends without leaving (`if response.ok: return`)
    backoff: str | None  # "exponential" | "linear" | "constant" | "none"; None: as a sequence of delays says
    delay: float | None  # seconds before the second attempt, where written as a number
    retry_on: tuple = ()  # tenacity's `retry=retry_if_exception_type(...)`: the types written; (): its handlers say


def retry_loop(loop: ast.For | ast.AsyncFor | ast.While) -> LoopShape | None:
    if isinstance(loop, (ast.For, ast.AsyncFor)) and _retrying_block(loop):
        return _tenacity_block(loop)
    if any(isinstance(n, ast.Call) and _name(n.func) in _PROMPTS for n in _walk(loop.body)):
        return None  # `url = input("node URL: ")` each round: a form asking again, not the same work tried again
    tries = [s for s in loop.body if isinstance(s, ast.Try) and s.handlers]
    # A `try` whose every handler leaves (`except ReadOnly: return uid`) checks before the attempt:
    # the one `try` whose failure goes round is the attempt.
    attempts = [t for t in tries if not all(always_exits(h.body) for h in t.handlers)]
    if len(attempts) == 1:
        return _trying(loop, attempts[0])
    return _until_it_works(loop) if not tries else None


def _trying(loop, attempt: ast.Try) -> LoopShape | None:
    """`for attempt in range(5): try: ...; return except E: sleep(...)`."""
    index = loop.body.index(attempt)
    before, after = loop.body[:index], loop.body[index + 1:]
    retrying = [h for h in attempt.handlers if not always_exits(h.body)]
    if not retrying or _per_item(loop, attempt.body):
        return None
    succeeded = attempt.body + attempt.orelse
    continues = any(_continues(h.body) for h in retrying)
    leaves_on_success = (any(isinstance(s, _LEAVES) for s in succeeded) or _ends_in_leave(attempt.body)
                         or _ends_in_leave(attempt.orelse) or _sets_the_test(loop, succeeded)
                         or (continues and _leaves(after) and _success_leaves(after)) or _flag_gate(attempt, retrying, after))
    if not leaves_on_success:
        return None
    # A give-up checked before each attempt (`if time.time() - start >= timeout: raise`) is an exit
    # when attempts keep failing, as one in a handler is.
    failing = [s for h in retrying for s in h.body] + _gives_up(before)
    bound = _bound(loop, failing, [] if continues else after)
    if bound is None:
        return None
    waits = _sleeps(failing) + _sleeps(before) + _sleeps(after)
    # A failure whose handler goes round without waiting, where nothing else in the loop waits
    # (`except OperationalError: sleep(10)` beside `except Exception: log(...)`): that failure's
    # retries come at once.
    at_once = not _waits_somehow(before + after + attempt.finalbody) and any(not _waits_somehow(h.body) for h in retrying)
    on_result = not (any(isinstance(s, _LEAVES) for s in succeeded + after) or _sets_the_test(loop, succeeded))
    return _shape(loop, attempt, bound, on_result, waits, at_once)


def _until_it_works(loop) -> LoopShape | None:
    """`for _ in range(3): if post_succeeded(...): return`: no `try`, a call whose true result
    leaves the loop and that is all the loop does but wait and log (a call whose false result
    leaves it, `if not next_page(): break`, is work done until there is none; a call given the
    loop's variable is one per item; a check before other work is a stop flag)."""
    gates = [s for s in loop.body if isinstance(s, ast.If) and not s.orelse and len(s.body) == 1
             and isinstance(s.body[0], _LEAVES) and isinstance(_unawaited(s.test), ast.Call)]
    if len(gates) != 1 or any(isinstance(s, _EXITS) for s in loop.body):
        return None
    gate = gates[0]
    if _counters(loop) & _names(gate.test):
        return None
    rest = [s for s in loop.body if s is not gate]
    if any(isinstance(n, ast.Call) and not _waits(n) and _name(n.func) not in _QUIET for n in _walk(rest)):
        return None  # other work in the loop: the call is a check, not the attempt
    bound = _bound(loop, rest, rest)
    if bound is None:
        return None
    return _shape(loop, None, bound, True, _sleeps(loop.body))


def _retrying_block(loop: ast.For | ast.AsyncFor) -> bool:
    """`for attempt in Retrying(...): with attempt: ...` (tenacity's `Retrying`, `AsyncRetrying`)."""
    it = loop.iter
    return (isinstance(it, ast.Call) and _name(it.func) in ("Retrying", "AsyncRetrying")
            and isinstance(loop.target, ast.Name)
            and any(isinstance(s, (ast.With, ast.AsyncWith)) and any(
                isinstance(item.context_expr, ast.Name) and item.context_expr.id == loop.target.id for item in s.items)
                for s in loop.body))


def tenacity_stop(name: str) -> str:
    """tenacity's `stop=` by the name written: "never" (`stop_never`), "attempts"
    (`stop_after_attempt(N)`: N - 1 retries) or "bounded" (time, a combination: a bound not known)."""
    last = name.rpartition(".")[2]
    return "never" if last == "stop_never" else "attempts" if last == "stop_after_attempt" else "bounded"


def tenacity_wait(kind: str, first: float | None) -> tuple[str | None, float | None]:
    """tenacity's `wait=` by the name of the call written (`kind`; "" for none) and its first
    argument when a number: (backoff, first delay). None written waits nothing; `wait_exponential`,
    `wait_random_exponential` grow; `wait_incrementing` grows by steps; `wait_fixed(n)` waits n;
    another wait (`wait_random`, a chain) does not grow, by how much is not known."""
    if not kind:
        return "none", 0.0
    if "exponential" in kind:
        return "exponential", None
    if "incrementing" in kind:
        return "linear", None
    return "constant", (float(first) if first is not None and kind.rpartition(".")[2] == "wait_fixed" else None)


def _tenacity_block(loop: ast.For | ast.AsyncFor) -> LoopShape:
    """The policy the `Retrying(...)` call writes: `stop=stop_after_attempt(N)` gives N - 1
    retries, another `stop` a bound not known here, none retries forever; `wait` says the backoff."""
    keywords = {k.arg: k.value for k in loop.iter.keywords if k.arg}
    stop, wait, retry = keywords.get("stop"), keywords.get("wait"), keywords.get("retry")
    kind = "never" if stop is None else tenacity_stop(_name(stop.func) if isinstance(stop, ast.Call) else _name(stop))
    count, count_from, forever = None, None, kind == "never"
    if kind == "attempts" and isinstance(stop, ast.Call) and len(stop.args) == 1 \
            and isinstance(stop.args[0], ast.Constant) and type(stop.args[0].value) is int:
        count = max(stop.args[0].value - 1, 0)
    elif not forever:
        count_from = ast.unparse(stop)
    retry_on: tuple = ()
    if isinstance(retry, ast.Call) and _name(retry.func) == "retry_if_exception_type" and retry.args:
        first = retry.args[0]
        retry_on = tuple(first.elts) if isinstance(first, ast.Tuple) else (first,)
    first = wait.args[0] if isinstance(wait, ast.Call) and wait.args else None
    backoff, delay = tenacity_wait(
        "" if wait is None else _name(wait.func) if isinstance(wait, ast.Call) else _name(wait) or "wait",
        first.value if isinstance(first, ast.Constant) and isinstance(first.value, (int, float)) else None)
    header = f"{'async for' if isinstance(loop, ast.AsyncFor) else 'for'} {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}"
    return LoopShape(None, header, count, count_from, forever, False, backoff, delay, retry_on)


def _shape(loop, attempt, bound, on_result: bool, waits: list, at_once: bool = False) -> LoopShape:
    count, count_from, forever = bound
    backoff, delay = ("none", 0.0) if at_once else _backoff(waits, loop)
    header = (f"while {ast.unparse(loop.test)}" if isinstance(loop, ast.While) else
              f"{'async for' if isinstance(loop, ast.AsyncFor) else 'for'} {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}")
    return LoopShape(attempt, header, count, count_from, forever, on_result, backoff, delay)


def _gives_up(statements: list) -> list:
    """The raises under an `if` that reads the clock or a deadline (`if time.time() - start >=
    timeout: raise`): a give-up once attempts have taken long enough. A check of the input
    (`if not api_key: raise`) ends no run of failures."""
    out = []
    for node in _walk(statements):
        if isinstance(node, ast.If) and _timed(node.test):
            out.extend(n for n in _walk(node.body) if isinstance(n, ast.Raise))
    return out


def _timed(test: ast.expr) -> bool:
    for n in ast.walk(test):
        name = _name(n.func) if isinstance(n, ast.Call) else n.id if isinstance(n, ast.Name) else \
            n.attr if isinstance(n, ast.Attribute) else None
        if name and (name in _CLOCKS or any(w in name.lower() for w in ("deadline", "timeout", "elapsed", "expire"))):
            return True
    return False


_CLOCKS = ("time", "monotonic", "perf_counter", "now", "utcnow", "today")


def _unawaited(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Await) else node


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _counters(loop) -> set[str]:
    return _names(loop.target) if isinstance(loop, (ast.For, ast.AsyncFor)) else set()


def _per_item(loop, statements: list) -> bool:
    """`for i in range(len(items)): try: post(items[i])`: the loop's variable picks what to work on."""
    counters = _counters(loop)
    return bool(counters) and any(isinstance(n, ast.Subscript) and counters & _names(n.slice) for n in _walk(statements))


def _success_leaves(after: list) -> bool:
    """What follows the `try` leaves once the attempt worked: it ends by leaving (`... continue`
    on a refused status, then `break`, or `raise` on any other), or goes round nowhere. One that goes round after work was
    done (`if processed: continue`) and ends waiting is a worker's round."""
    return not _continues(after) or (bool(after) and isinstance(after[-1], _EXITS)) or _ends_in_leave(after)


def _ends_in_leave(statements: list) -> bool:
    """The last statement is an `if` that leaves (`if response.ok: return response`), or only log
    lines follow it (`log.error("unsuccessful: %s", response.reason)`): the check of what the attempt
    gave. A way out under an `if` earlier, before more work, leaves on something taken (`if msg is
    None: break`), not on success."""
    while statements and isinstance(statements[-1], ast.Expr) and isinstance(statements[-1].value, ast.Call) \
            and _name(statements[-1].value.func) in _QUIET:
        statements = statements[:-1]
    if not (statements and isinstance(statements[-1], ast.If) and _leaves([statements[-1]])):
        return False
    last = statements[-1]
    empty = _empty_arm(last.test)
    # `job = queue.pop_next(); if job: work(job) else: break`: it leaves when nothing was taken.
    return empty is None or _leaves(last.body if empty == "orelse" else last.orelse)


def _empty_arm(test: ast.expr) -> str | None:
    """Which arm of `if item:` runs when a name holds nothing (`if job:` its `else`, `if job is
    None:` its body); None for a test of anything else (`if response.ok:`)."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated:
        test = test.operand
    if isinstance(test, ast.Name):
        return "body" if negated else "orelse"
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None \
            and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and not negated:
        return "body" if isinstance(test.ops[0], ast.Is) else "orelse"
    return None


def _flag_gate(attempt: ast.Try, retrying: list, after: list) -> bool:
    """After the `try`, an `if` reading a flag a handler sets to True or False decides whether to go
    round: one arm leaves, the other does not (`except Timeout: should_retry = True` ... `if
    should_retry and attempt < last: sleep(1) else: return`; `if ok: break`)."""
    # A flag is set to True or False by a handler (what a page count or a result is set to is data).
    flags = {ast.unparse(target): n.value.value for n in _walk([s for h in retrying for s in h.body])
             if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Constant)
             and isinstance(n.value.value, bool)
             for target in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(target, (ast.Name, ast.Attribute))}
    for index, s in enumerate(after):
        if not isinstance(s, ast.If) or always_exits(s.body) == always_exits(s.orelse):
            continue
        # With the flag as the handler sets it, the test must be able to choose the arm that goes
        # round: `exhausted = True` ... `if exhausted: break` ends the loop on the failure.
        goes_round_when = not always_exits(s.body)
        outcomes = {_truth(s.test, name, value) for name, value in flags.items()
                    if name in {ast.unparse(n) for n in ast.walk(s.test) if isinstance(n, (ast.Name, ast.Attribute))}}
        if not outcomes or outcomes == {not goes_round_when}:
            continue
        going_round = s.orelse if always_exits(s.body) else s.body
        # Nothing but waiting and logging on the way round, nor after the `if`: work after it would
        # make the flag something taken (`if item is None: break; handle(item)`), not a success.
        if _only_waits(going_round) and _only_waits(after[index + 1:]):
            return True
    return False


def _truth(test: ast.expr, flag: str, value: bool) -> bool | None:
    """What `test` is when `flag` holds `value`: True, False, or None when the rest decides."""
    if isinstance(test, (ast.Name, ast.Attribute)) and ast.unparse(test) == flag:
        return value
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, flag, value)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [_truth(v, flag, value) for v in test.values]
        decisive = isinstance(test.op, ast.Or)  # any True decides an `or`, any False an `and`
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    return None


def _only_waits(statements: list) -> bool:
    return all(isinstance(s, ast.Pass) or isinstance(s, ast.Expr) and isinstance(_unawaited(s.value), ast.Call)
               and (_waits(_unawaited(s.value)) or _name(_unawaited(s.value).func) in _QUIET) for s in statements)


def _sets_the_test(loop, statements: list) -> bool:
    """`while not sent: try: send(); sent = True`: the body sets a name the loop's test reads
    (`self.sent` too)."""
    if not isinstance(loop, ast.While):
        return False
    tested = {ast.unparse(n) for n in ast.walk(loop.test) if isinstance(n, (ast.Name, ast.Attribute))}
    return any(isinstance(n, ast.Assign) and any(ast.unparse(t) in tested for t in n.targets)
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


def always_exits(statements: list) -> bool:
    """Does this block leave the loop whatever happens: a `raise`, `return` or `break` among its
    statements, an `if` whose every arm leaves, or a `with` whose body does, with no `continue`
    before it (`if status == 409: sleep(0.05); continue` then `raise`: a conflict goes round)?"""
    for s in statements:
        if not isinstance(s, _EXITS) and _continues([s]):
            return False
        if isinstance(s, _EXITS):
            return True
        if isinstance(s, ast.If) and s.orelse and always_exits(s.body) and always_exits(s.orelse):
            return True
        if isinstance(s, (ast.With, ast.AsyncWith)) and always_exits(s.body):
            return True
    return False


def _exits_sometimes(loop, failing: list, after: list) -> bool:
    """A way out after an attempt failed: an exit anywhere in what its handlers run, or under a
    condition after the `try` where a failed attempt goes on to run it (a way out among the
    statements after the `try` is the way out on success). Not one a setting decides (`if
    self._propagate_errors: raise`): with the setting off, failures go round for ever."""
    set_off = _setting_gated(loop, failing + after)
    return any(isinstance(n, _EXITS) and id(n) not in set_off for n in _walk(failing)) or any(
        isinstance(n, _EXITS) and n not in after and id(n) not in set_off for n in _walk(after))


def _setting_gated(loop, statements: list) -> set[int]:
    """The exits in the arm of an `if` whose test reads only settings: names and attributes of
    objects that nothing in the loop assigns, calls a method of or hands to a call (not the caught
    exception, a counter, a budget spent, a clock), and no call."""
    changed: set[str] = set()
    for n in ast.walk(loop):
        changed.update(ast.unparse(t) for t in _assigned(n))
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Attribute):
                changed.add(_root(n.func.value))  # `delays.pop(0)`, `budget.spend()`, `self._record_failure()`
            changed.update(_root(a) for a in (*n.args, *(k.value for k in n.keywords)))
    out: set[int] = set()
    for node in _walk(statements):
        if isinstance(node, ast.If) and _reads_settings(node.test, changed):
            out |= {id(n) for n in _walk(node.body) if isinstance(n, _EXITS)}
    return out


def _assigned(node: ast.AST) -> list:
    """The names and attributes a statement binds (each of a tuple's: `tries, delay = ...`)."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        targets = [node.optional_vars]
    elif isinstance(node, ast.ExceptHandler) and node.name:
        return [ast.Name(node.name)]
    else:
        return []
    return [n for t in targets for n in ast.walk(t) if isinstance(n, (ast.Name, ast.Attribute))]


def _root(node: ast.AST) -> str:
    """The name an attribute chain starts from (`self` in `self.budget.left`), as written."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _reads_settings(test: ast.expr, changed: set[str]) -> bool:
    read = [n for n in ast.walk(test) if isinstance(n, (ast.Name, ast.Attribute))]
    if not read or _timed(test) or any(not isinstance(n, (ast.Name, ast.Attribute, ast.BoolOp, ast.UnaryOp, ast.Load,
                                                          ast.And, ast.Or, ast.Not)) for n in ast.walk(test)):
        return False
    # `ex.retryable` reads the exception: a name the loop changes, or an attribute of it, is no setting.
    return not any(ast.unparse(n) in changed or _root(n) in changed for n in read)


def _bound(loop, failing: list, after: list) -> tuple[int | None, str | None, bool] | None:
    """(retries when known, what holds the count otherwise, never stops), or None when the loop
    does not count attempts (a loop over items). `failing`: what runs when an attempt fails;
    `after`: what runs after the `try` whether it failed or not."""
    exits = _exits_sometimes(loop, failing, after)
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        it = loop.iter
        if isinstance(it, (ast.Tuple, ast.List)):
            if not all(isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) for e in it.elts):
                return None  # `for host in ("a", "b")`: a failover over items, not attempts
            return max(len(it.elts) - 1, 0), None, False
        if isinstance(it, ast.Call) and _name(it.func) == "count":
            return (None, "an exit when it fails", False) if exits else (None, None, True)
        if isinstance(it, ast.Call) and _name(it.func) in ("range", "xrange") and not it.keywords and it.args:
            args = it.args
            if all(isinstance(a, ast.Constant) and type(a.value) is int for a in args) and len(args) <= 3 \
                    and (len(args) < 3 or args[2].value != 0):
                return max(len(range(*(a.value for a in args))) - 1, 0), None, False
            return None, ast.unparse(args[0] if len(args) == 1 else args[1]), False
        if isinstance(loop.target, ast.Name) and any(isinstance(a, ast.Name) and a.id == loop.target.id
                                                     for s in _sleeps(loop.body) for a in s.args):
            return None, ast.unparse(it), False  # `for delay in delays: ... sleep(delay)`: waits between attempts
        return None
    test = loop.test
    if isinstance(test, ast.Constant):
        flag = bool(test.value)
    else:
        operand = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
        # A name or attribute the loop does not count (`while not sent`, `while self.running`) is a
        # flag; one it counts (`while retries:` with `retries -= 1`) and a comparison bound it.
        flag = isinstance(operand, (ast.Name, ast.Attribute)) and ast.unparse(operand) not in _counted(loop)
    if not flag:
        return None, ast.unparse(test), False
    if exits:
        return None, "an exit when it fails", False
    return None, None, True


def _counted(loop) -> set[str]:
    return {ast.unparse(n.target) for n in _walk(loop.body) if isinstance(n, ast.AugAssign)}


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


_WAIT_WORDS = frozenset({"backoff", "sleep", "pause", "wait", "throttle"})


def _waits(call: ast.Call) -> bool:
    """A sleep, or an event's `wait(timeout)`."""
    name = _name(call.func)
    return name.lower().endswith("sleep") or (name == "wait" and bool(call.args or call.keywords))


def _sleeps(statements: list) -> list[ast.Call]:
    return [n for n in _walk(statements) if isinstance(n, ast.Call) and _waits(n)]


def _waits_somehow(statements: list) -> bool:
    """A sleep, or a call of a helper named for waiting (`_backoff(attempt, exc)`,
    `self._wait_before_retry(n)`), which waits for a time not known here."""
    return any(isinstance(n, ast.Call) and (_waits(n) or _WAIT_WORDS.intersection(_name(n.func).lower().split("_")))
               for n in _walk(statements))


def _backoff(sleeps: list[ast.Call], loop) -> tuple[str | None, float | None]:
    if not sleeps:
        return (None, None) if _waits_somehow(loop.body) else ("none", 0.0)
    first = sleeps[0]
    arg = first.args[0] if first.args else next((k.value for k in first.keywords if k.arg in ("timeout", "seconds", "delay")), None)
    if isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool):
        return "constant", float(arg.value)
    delays = _listed_delays(arg, loop)
    if delays:  # `for delay in (1, 5, 30): ... sleep(delay)`
        return ("constant" if len(set(delays)) == 1 else "linear"), delays[0]
    if isinstance(arg, ast.Name) and isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
            and loop.target.id == arg.id and not (isinstance(loop.iter, ast.Call) and _name(loop.iter.func) in ("range", "xrange", "count")):
        return None, None  # `for delay in delays: ... sleep(delay)`: as the sequence says, not known here
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
