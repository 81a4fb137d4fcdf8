"""JC201 retry-on-unguarded-effect: a retried function makes an external effect (email, HTTP
write, payment, SMS, publish, enqueue) — itself or through its callees — with no idempotency
guard, and the retry can run after the effect happened.

Retry scope matters: a retry repeats only what ran before the failure. An explicit retry
(`self.retry()`, `raise Retry`) that can only happen before every effect, or in another branch,
or in an `except` clause that nothing at or after the effect can reach, repeats nothing.
Automatic retries (`autoretry_for`, Dramatiq's default, `Retry(max=...)`, tenacity) on any
exception repeat every effect before the failure; on a specific exception they repeat what ran
before the places that can raise it (`raises.Raises`). In a loop that pulls each round's item
from a call (`summary._pulls`), a failure in a later round repeats no earlier round's effect.
"""

from __future__ import annotations

import re

from ..analysis.jobs import RetryPolicy, holding_handler
from ..analysis.names import short
from ..analysis.program import exclusive
from ..analysis.project import CallEffect
from ..analysis.raises import Raises, is_broad
from ..analysis.summary import LOG_METHODS, FunctionSummary
from ..analysis.values import names_within
from .context import CheckContext, ProjectView, event_anchor

CODES = ("JC201",)
# Failures that can come after the far end acted: what a check taking them for retryable retries.
# (Broad bases count: `RequestException`, `ClientError`, `OSError` take timeouts in.)
_TRANSIENT = re.compile(r"(?i)timeout|timed_?out|connection|connect_?error|server_?error|transport|"
                        r"RequestException|RequestError|ClientError|HTTPError|OSError|IOError|socket\.error|5\d\d")
# Statuses that say the request was refused before it did anything: retrying one repeats nothing.
_NOT_DONE = frozenset({401, 403, 407, 408, 409, 423, 425, 429})
_VERBS = {
    "email": "sends email",
    "sms": "sends an SMS",
    "http": "makes an HTTP write",
    "payment": "makes a payment call",
    "publish": "publishes a message",
    "enqueue": "enqueues another job",
}


def run(ctx: CheckContext):
    project = ctx.project
    raises = Raises(project)
    # Every job, retried function and function they reach (`job_context`, whose roots are the first
    # two) may hold a retry: a loop, a lambda handed to a retry helper; so does a function whose own
    # retry loop makes an effect again, wherever it is called from. (Not the rest of the work
    # started once in the background: tried, mostly status polls and logins, not effects.)
    for qualname, fn in ctx.reached_functions(retried=True):
        policies = project.retry_policies(qualname)
        if not policies:
            continue
        effects = project.call_effects(qualname)
        if not effects:
            continue
        scopes = [_RetryScope(project, raises, fn, policy, effects) for policy in policies]
        for ce in effects:
            if ce.path.kind == "enqueue" and ce.path.chain[-1].rpartition(".")[0] == qualname:
                continue  # enqueueing itself again: how it goes on (or is retried), not an effect repeated
            if _reports_a_failure(project, fn, ce):
                continue  # `except Exception as e: alert(e); raise`: one report per failed attempt, no work repeated
            trigger = next((t for t in (scope.repeats(ce) for scope in scopes) if t is not None), None)
            if trigger is None:
                continue
            site = project.jobs.get(qualname)
            display = site.display if site is not None else qualname
            chain = (qualname, *ce.path.chain)
            yield ctx.finding(
                "JC201",
                event_anchor(project, qualname, ce.event_index),
                f"`{short(display)}` is retried ({trigger}) and {_VERBS[ce.path.kind]} with no idempotency "
                f"guard: {' -> '.join(short(c) for c in chain)}; a retry after this call repeats it. Pass an "
                f"idempotency key derived from the work, record a key in the same transaction, or go through an outbox",
                confidence=ce.path.confidence,
                job=ctx.job_of(qualname) or display,
                chain=chain,
                function=qualname,
            )


def _reports_a_failure(project: ProjectView, fn: FunctionSummary, ce: CallEffect) -> bool:
    """The effect is made from an `except` clause that raises again, in the retried function or
    in a helper on the way (`health_check` alerting on its own failure before raising it): it
    tells of a failure (an alert, a failure record), once per attempt that failed, and the work
    it reports is what the retry runs again, not the report."""
    if _in_a_reraising_clause(fn, fn.events[ce.event_index]):
        return True
    for caller, callee in zip(ce.path.chain, ce.path.chain[1:]):
        helper = project.functions.get(caller)
        if helper is None:
            return False
        calls = [ev for ev in helper.events
                 if ev.kind == "call" and any(c.qualname == callee for c in project.callees(ev))]
        if calls and all(_in_a_reraising_clause(helper, ev) for ev in calls):
            return True
    return False


def _in_a_reraising_clause(fn: FunctionSummary, ev) -> bool:
    clause = holding_handler(fn, ev.handlers[-1], ev.line) if ev.handlers else None
    return clause is not None and clause.reraises


class _RetryScope:
    """Where in one function a retry can start, and so which effects it repeats."""

    def __init__(self, project: ProjectView, raises: Raises, fn: FunctionSummary, policy: RetryPolicy,
                 effects: list[CallEffect], depth: int = 0) -> None:
        self.project, self.raises, self.fn, self.policy, self.depth = project, raises, fn, policy, depth
        self.explicit = project.explicit_retry_points(fn.qualname)
        # Libraries of the effects reached through each event (a helper that posts can raise requests errors).
        self.libs: dict[int, tuple[str, ...]] = {}
        self.chains: dict[int, list[tuple]] = {}  # the effects' call chains, by the event they go through
        for ce in effects:
            self.libs[ce.event_index] = self.libs.get(ce.event_index, ()) + (ce.path.chain[-1],)
            self.chains.setdefault(ce.event_index, []).append(ce.path.chain)
        # Calls of a helper that keeps every failure from its effect on (`try: send_mail(...) except
        # Exception: log.exception(...)`): nothing raised once the effect ran leaves them.
        self.quiet = {ce.event_index for ce in effects} - {
            ce.event_index for ce in effects if _escapes_after(project, ce.path.chain, 0)}

    def repeats(self, ce: CallEffect) -> str | None:
        """How a retry can come after this effect ran (a description), or None if it cannot."""
        policy, fn = self.policy, self.fn
        e = ce.event_index
        if policy.calls is not None and e not in policy.calls:
            return None  # only what the lambda handed to the retry helper calls runs again
        if policy.caught_by is not None and self._on_refusal_only(policy):
            return None  # called again only after a 401 (a token renewed): the request did nothing
        if policy.judged and not any(self._asks_of_transients(name) for name in policy.judged):
            return None  # it goes round only on the failures a check of the application's picks: not known here
        if policy.loop is not None:
            return self._loop_repeats(e)
        if policy.on is None:
            return policy.setting
        for exc in policy.on:
            exc = self.project.canonical(exc) or exc
            # An API's rejection (SlackApiError, a declined card) means this call did nothing:
            # raised by the effect itself it repeats nothing, though a later call raising it does.
            rejection = exc in self.project.catalog.rejections
            for i in range(len(fn.events)):
                if policy.calls is not None and i not in policy.calls:
                    continue  # raised outside what runs again
                here = i == e and not rejection and e not in self.quiet and self._after_effect(exc, [ce.path.chain])
                if self._refused(i, e):
                    continue  # `if e.code == 403: raise NotAuthorized()`: what says the request was refused
                if ((here or self._after(i, e)) and self.raises.can_raise(fn, i, exc, self.libs.get(i, ()))
                        and not self._kept_in(i, exc, outside=policy.caught_by)):
                    return policy.setting
        for p in self.explicit:
            if _in_refusal_arm(fn, fn.events[p].line):
                continue  # `elif response.status_code == 429: self.retry(...)`: the request did nothing
            if self._after(p, e) or (p == e and self._helper_repeats(p, ce)):
                ev = fn.events[p]
                what = "raise Retry" if ev.kind == "raise" else f"{ev.attr}()"
                return f"{what} at line {ev.line}; {policy.setting}"
        return None

    def _raised_after_along(self, chain: tuple, exc: str) -> bool:
        """Does a helper the effect goes through raise `exc`, an exception of the application's,
        once the call leading to the effect has run (`_request` raising `ServerError` on the
        status of its POST)? Raised before that call, by a check of the arguments, it repeats
        nothing."""
        for k, qualname in enumerate(chain[:-1]):
            helper = self.project.functions.get(qualname)
            if helper is None:
                return False
            scope = _RetryScope(self.project, self.raises, helper, self.policy, [], self.depth + 1)
            last = k + 2 == len(chain)  # the next link is the effect's own call, named as the catalog names it
            steps = [j for j, ev in enumerate(helper.events) if ev.kind == "call" and (
                self.project.event_name(ev) == chain[k + 1] or any(c.qualname == chain[k + 1] for c in self.project.callees(ev))
                or (last and (hit := self.project.catalog_effect(ev)) is not None and hit.name == chain[k + 1]))]
            if any(r != j and scope._after(r, j) and self.raises.can_raise(helper, r, exc) and not scope._kept_in(r, exc)
                   for j in steps for r in range(len(helper.events))):
                return True
        return False

    def _refused(self, index: int, effect: int) -> bool:
        """Is event `index` a raise in an arm of a handler of the effect's `try` that runs only on
        statuses saying the request did nothing (`except HTTPError as err: if err.code == 403:
        raise NotAuthorized()`)? A retry on what it raises repeats nothing."""
        ev = self.fn.events[index]
        if ev.kind != "raise" or not ev.handlers or ev.handlers[-1] not in self.fn.events[effect].tries:
            return False
        return _in_refusal_arm(holding_handler(self.fn, ev.handlers[-1], ev.line), ev.line)

    def _on_refusal_only(self, policy: RetryPolicy) -> bool:
        """Is the call that runs the function again (a retry by recursion, a call made again, a
        job enqueued again) in an arm of its handler that runs only on statuses that say the
        request did nothing (`if e.response.status_code == 401: self._authenticate(); return
        self._request(...)`)?"""
        handler = holding_handler(self.fn, policy.caught_by, policy.anchor.line)
        if handler is not None and handler.goes_on_statuses and set(handler.goes_on_statuses) <= _NOT_DONE:
            return True  # `if status != 429: raise` first: it goes on only after a refusal
        return _in_refusal_arm(handler, policy.anchor.line)

    def _asks_of_transients(self, name: str, depth: int = 0) -> bool:
        """Does a function the retry asks about the failure take timeouts or lost connections for
        retryable (`isinstance(error, requests.Timeout)`, also through a function it asks in
        turn)? Those come after an effect landed. A library's check is not read (not known)."""
        fn = self.project.function_for(self.project.canonical(name) or name) if name else None
        if fn is None or depth > 2:
            return False
        return any(_TRANSIENT.search(n) for ev in fn.events
                   for n in (ev.name or "", *(m for v in (*ev.args, *ev.kwargs.values()) for m in names_within(v)))) \
            or any(self._asks_of_transients(ev.name, depth + 1) for ev in fn.events if ev.kind == "call" and ev.name)

    def _helper_repeats(self, index: int, ce: CallEffect) -> bool:
        """The retry is asked for inside the helper that makes the effect (`_perform(self, pk)`,
        whose `self.retry()` follows its POST): read that helper's own order."""
        if self.depth >= 2:
            return False  # helpers handing the task to each other: read two deep
        for helper in self.project.retry_helpers(self.fn.qualname, self.fn.events[index]):
            effects = self.project.call_effects(helper.qualname)
            inner = _RetryScope(self.project, self.raises, helper, self.policy, effects, self.depth + 1)
            if any(c.path.chain[-1] == ce.path.chain[-1] and inner.repeats(c) for c in effects):
                return True
        return False

    def _loop_repeats(self, e: int) -> str | None:
        """A retry loop repeats an effect its `try` makes when the effect, or something after it in
        that `try`, can raise what a handler catches (and no `try` inside keeps it); a loop that
        tries a call until it returns true repeats every effect in it."""
        loop_id, try_id = self.policy.loop
        fn, effect = self.fn, self.fn.events[e]
        if loop_id not in effect.loops:
            return None
        if try_id is None:
            return self.policy.setting  # tried again until a call says it worked
        if try_id not in effect.tries:
            return None
        handlers = [h for h in fn.handlers if h.try_id == try_id]
        if any(h.accepts_conflict for h in handlers):
            return None  # a 409 on a retry is taken as done: the far end knows the resource by its name
        going = [h for h in handlers if not h.exits] or handlers
        if going and all(h.goes_on_statuses and set(h.goes_on_statuses) <= _NOT_DONE for h in going):
            return None  # it goes round only on a refusal (423 Locked, 429): the request did nothing
        for i, ev in enumerate(fn.events):
            if try_id not in ev.tries or (i != e and ((ev.line, ev.col) < (effect.line, effect.col) or _within(ev, effect))):
                continue  # (an argument of the effect's call runs before it)
            for exc in self.policy.on or (None,):
                if exc is None:
                    if not self._kept_in(i, "Exception", outside=try_id):
                        return self.policy.setting
                    continue
                exc = self.project.canonical(exc) or exc
                if (i != e or exc not in self.project.catalog.rejections) \
                        and self.raises.can_raise(fn, i, exc, self.libs.get(i, ())) and not self._kept_in(i, exc, outside=try_id):
                    return self.policy.setting
        return None

    def _kept_in(self, index: int, exc: str, outside: int | None = None) -> bool:
        """Is `exc`, raised at this event, caught around it and not raised again? A `try` keeps it
        when one of its clauses surely catches it (that type, `Exception`, a bare `except`) and no
        clause of the try raises it again (`raise`, `raise err`, or a raise of that type): a handler
        that translates it (`raise UpstreamError(...) from exc`) keeps it from the retry."""
        fn = self.fn
        for try_id in fn.events[index].tries:
            if try_id == outside:
                continue  # the retry's own `try` (a loop's, or the one whose handler calls the function again)
            clauses = [h for h in fn.handlers if h.try_id == try_id]
            if not any(not h.types or any(_surely_catches(self.project.canonical(t) or t, exc) for t in h.types if t)
                       for h in clauses):
                continue
            raises_again = any(
                ev.kind == "raise" and try_id in ev.handlers and (not ev.name or self.raises.can_raise(fn, j, exc))
                for j, ev in enumerate(fn.events))
            if not raises_again:
                return True
        return False

    def _after(self, later: int, earlier: int) -> bool:
        """Can event `later` run after event `earlier` has run (normal flow or an exception)?"""
        a, b = self.fn.events[later], self.fn.events[earlier]
        # In a loop that pulls each round's item (`km = fetch_next(); if not km: break`) a failure in
        # a later round, or after the loop, comes after earlier rounds' effects, but a run started
        # again pulls new items: only a failure later in the same round repeats the effect.
        if any(loop in self.fn.pulls and loop not in a.loops for loop in b.loops):
            return False
        if (set(a.loops) & set(b.loops)) - set(self.fn.pulls):
            return True  # (itself too, in the next round)
        if later == earlier:
            return False
        if exclusive(a, b):
            return False
        # A call written around it runs after it: on its result (`post(...).raise_for_status()`) or
        # given it (`_check(post(...))`); otherwise what is written first runs first.
        encloses = (a.line, a.col) <= (b.line, b.col) and (a.end_line, a.end_col) >= (b.end_line, b.end_col)
        if not encloses and (a.line, a.col) <= (b.line, b.col) or _within(a, b):
            return False  # written first, or an argument of `earlier`'s call: evaluated before it
        caught_in = [t for t in a.handlers if t in b.tries]
        if caught_in:
            return self._handler_reachable(later, earlier, caught_in[-1])
        if b.exit_line and a.line > b.exit_line:
            return False  # `earlier` is in a block that returns or raises before `later`
        return True

    def _handler_reachable(self, later: int, earlier: int, try_id: int) -> bool:
        """Code in an `except` clause runs after `earlier` (in that try's body) only if something
        at or after `earlier`, inside the try, can raise what the clause catches. A rejection
        (a declined card, an SMTP error reply) raised by `earlier` itself means it did nothing."""
        a = self.fn.events[later]
        clauses = sorted((h for h in self.fn.handlers if h.try_id == try_id), key=lambda h: h.line)
        clause = next((h for h in reversed(clauses) if h.line <= a.line), None)
        if clause is None or not clause.types:
            caught = ["Exception"]  # a bare except catches everything
        else:
            caught = [self.project.canonical(t) or t for t in clause.types if t]
        start = self.fn.events[earlier]
        for i, ev in enumerate(self.fn.events):
            if try_id not in ev.tries or (i != earlier and (ev.line, ev.col) < (start.line, start.col)):
                continue
            if start.exit_line and ev.line > start.exit_line and not set(ev.loops) & set(start.loops):
                continue
            if i == earlier and earlier in self.quiet:
                continue  # the helper keeps what fails once its effect ran
            if i != earlier and (start.line, start.col) <= (ev.line, ev.col) \
                    and (ev.end_line, ev.end_col) < (start.end_line, start.end_col):
                continue  # its receiver or an argument (`Service().send(...)`): runs before it
            kinds = [t for t in caught if i != earlier or t not in self.project.catalog.rejections]
            if any(self.raises.can_raise(self.fn, i, t, self.libs.get(i, ()))
                   and (i != earlier or self._after_effect(t, self.chains.get(i, ()))) for t in kinds):
                return True
        return False

    def _after_effect(self, exc: str, chains) -> bool:
        """Can the call that makes an effect (through one of `chains`) raise `exc` once the effect
        ran? An exception of the application's own must be raised after it, along the helpers it
        goes through (a lock that times out before the work raises before every effect; a client
        raising `ServerError` on its POST's status, after it); others come from the call."""
        if is_broad(exc) or not self.raises.is_own(exc):
            return True
        return any(self._raised_after_along(chain, exc) for chain in chains)


_CATCH_ALL = ("Exception", "BaseException", "builtins.Exception", "builtins.BaseException")
# Calls that only log or wait: no failure to speak of comes out of them.
_CANNOT_FAIL = frozenset({*LOG_METHODS, "print", "sleep"})


def _escapes_after(project: ProjectView, chain: tuple[str, ...], depth: int) -> bool:
    """Can a failure raised once the effect at the end of `chain` ran leave `chain[depth]`, the
    helper that leads to it? Not when that call, and everything after it in the helper (in its
    loop: before it too), is in a `try` whose clause catches everything and raises nothing again;
    logging, sleeping, calling the helper again and raising again what the `try` caught aside."""
    if depth >= len(chain) - 1 or depth > 4:
        return True  # the library's call itself: a timeout after the far end acted
    fn = project.functions.get(chain[depth])
    if fn is None:
        return True
    rest = chain[depth + 1:]
    at = next((ce.event_index for ce in project.call_effects(fn.qualname) if ce.path.chain == rest), None)
    if at is None:
        return True
    call = fn.events[at]
    if _escapes_after(project, chain, depth + 1) and not _keeps_everything(fn, call):
        return True
    # A call of the helper itself (it tries again by recursion) lets out what the rest of it does;
    # a bare `raise` in a handler of the `try` around the call, what that `try` let out.
    return any((ev.kind == "raise" and (ev.name or not set(ev.handlers) & set(call.tries))
                or (ev.kind == "call" and (ev.name or "").rpartition(".")[2] not in _CANNOT_FAIL
                    and project.function_for(project.event_name(ev) or "") is not fn))
               and ((ev.line, ev.col) > (call.line, call.col) or set(ev.loops) & set(call.loops)) and i != at
               and not _within(ev, call) and not _keeps_everything(fn, ev)
               for i, ev in enumerate(fn.events))


def _keeps_everything(fn: FunctionSummary, ev) -> bool:
    """Is the event in a `try` with a clause that catches everything and a handler that raises
    nothing again?"""
    for try_id in ev.tries:
        clauses = [h for h in fn.handlers if h.try_id == try_id]
        catch_all = any(not h.types or any(t in _CATCH_ALL for t in h.types) for h in clauses)
        raising = any(h.reraises for h in clauses) or any(e.kind == "raise" and try_id in e.handlers for e in fn.events)
        if catch_all and not raising:
            return True
    return False


def _in_refusal_arm(handler, line: int) -> bool:
    """Is `line` in an arm of `handler` (or of a function) that runs only on statuses saying the
    request did nothing?"""
    return handler is not None and any(first <= line <= last and set(codes) <= _NOT_DONE
                                       for first, last, codes in handler.status_arms)


def _within(inner, outer) -> bool:
    """Is call `inner` written inside call `outer` (one of its arguments), not `outer` itself?"""
    return (outer.line, outer.col) < (inner.line, inner.col) and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


def _surely_catches(caught: str, exc: str) -> bool:
    """Does `except caught` catch every `exc`? The same type, or a catch-all."""
    return caught == exc or caught in _CATCH_ALL
