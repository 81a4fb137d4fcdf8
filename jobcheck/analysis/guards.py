"""What makes an effect safe to repeat, as the `Project` answers it: a key passed to the far end or
recorded in the same transaction, a dedup marker, a `created` flag that gates it, a read-only
request; and which writes share a transaction (Django `atomic`, SQLAlchemy sessions and
`begin()`, psycopg and sqlite3 connections, `@atomic` helpers). A mixin of `Project`: its methods
use the linked program (`functions`, `canonical`, `catalog`, `callees`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..effects.catalog import (
    ASKING_VERBS,
    CHANGE_WORDS,
    MUTATING_WORDS,
    SQL_TEXT_BUILDERS,
    SQL_WRITE_STATEMENTS,
    TRANSACTION_CONNECTS,
    TRANSACTION_ENDS,
    QUERIES,
    TRANSITIONS,
    UNIQUE_VIOLATIONS,
    UNIT_OF_WORK_CONNECTIONS,
)
from ..effects.classify import db_write
from ..model import Confidence
from .keys import is_key_name, is_message_id, is_record_key_field
from .words import name_words
from .program import bound_argument, calls_of, deco_name, exclusive
from .summary import MODULE_CODE, Event, FunctionSummary
from .values import options

if TYPE_CHECKING:
    from .project import EffectPath


class Guards:
    def is_guarded(self, fn: FunctionSummary, index: int) -> bool:
        """Does something make this call idempotent? A key passed to the far end, a key recorded
        in the same transaction before it, a dedup marker set before it, or a configured guard."""
        event = fn.events[index]
        if any(self._sends_a_key(fn, sent, event) for sent in (event, *self._request_built_for(fn, event))):
            return True
        if self._key_in_body(fn, event) or self.sends_a_read(fn, index) or self.moves_a_resource(fn, index) \
                or self.asks_a_question(fn, index):
            return True
        if any(fn.events[g].attr in _CREATED_FLAGS for g in event.gated):
            return True  # runs only when `get_or_create` created the row: once
        for j in range(index):
            other = fn.events[j]
            if other.kind != "call" or exclusive(other, event):
                continue
            name = self.event_name(other)
            if name in self.catalog.guards:
                return True
            if name in self.catalog.markers or (other.attr == "set" and "nx" in other.kwargs):
                return True
            if self.records_key(other) and self.same_transaction(fn, other, event):
                return True
            if self.checked_record(fn, other):
                return True
        for deco in fn.decorators:
            if self.canonical(deco_name(deco[0])) in self.catalog.guards:
                return True
        return False

    def _sends_a_key(self, fn: FunctionSummary, sent: Event, event: Event) -> bool:
        """Does the call (or the request builder whose request `event` sends) pass a key: a
        key-named keyword, or a key-named header (`headers={"Idempotency-Key": k}`), also in
        headers a helper of the application's builds (`headers=_build_headers(msg_id, ...)`)?"""
        if any(is_key_name(kw) for kw in sent.kwargs):
            return True
        carriers = [kw for kw in sent.kwargs if kw in ("headers", "extra_headers", "**", "request_options", "options")]
        if not carriers:
            return False
        if any(s.kind == "dictkey" and is_key_name(s.name) and s.line <= event.end_line for s in fn.sinks):
            return True
        helpers = (h for kw in carriers for j in sent.kwsrc.get(kw, ()) if j < len(fn.events)
                   for h in self.callees(fn.events[j]))
        if any(h is not fn and any(s.kind == "dictkey" and is_key_name(s.name) for s in h.sinks) for h in helpers):
            return True
        return any(m <= event.end_line for m in self.key_marks(fn))

    def _request_built_for(self, fn: FunctionSummary, event: Event) -> list[Event]:
        """The request builders whose request a sender sends (`opener.open(request)` after `request
        = Request(url, data=body, headers=headers)`)."""
        if event.kind != "call" or self.event_name(event) not in self.catalog.senders:
            return []
        return [fn.events[j] for j in (event.argsrc[0] if event.argsrc else ())
                if fn.events[j].kind == "call" and self.event_name(fn.events[j]) in self.catalog.builders]

    def _key_in_body(self, fn: FunctionSummary, event: Event) -> bool:
        """An idempotency key or message id sent in the request body: `json={"idempotency_key":
        ...}`; a body given as a variable where a dict with such a field was built before the
        call; or a body a helper returns (`payload = event_type.build_payload(entry)`) when every
        implementation that call can run puts one in. `body=` too: SDKs that take the request so
        (Square's) carry their key there."""
        for kw in ("json", "data", "body"):
            value = event.kwargs.get(kw)
            if not value:
                continue
            if _has_key_field(value, minted=self._mints):
                return True
            if value[0] == "dict":
                continue
            if any(_names_the_body(s.name) and s.line <= event.end_line and not self._per_attempt(fn, s.sources)
                   for s in fn.sinks):
                return True
            if any(self._builds_keyed_body(fn.events[j], fn) for j in event.kwsrc.get(kw, ())):
                return True
        return False

    def _builds_keyed_body(self, made: Event, within: FunctionSummary, depth: int = 0) -> bool:
        """Does this call return a body with a key or message id in it, in every implementation
        it can run (a method of an untyped object: every method of that name)? A builder that
        returns what another builder made (`d = super().build_payload(e); d["x"] = 1; return d`)
        counts as that one."""
        if made.kind != "call" or depth > 3:
            return False
        builders = self.callees(made)
        if not builders and made.attr:  # a method of an object the analysis cannot type
            builders = self.once("functions by name", self._functions_by_name).get(made.attr, [])
        builders = [b for b in builders if b is not within and not any(
            ev.kind == "raise" and (ev.name or "").endswith("NotImplementedError") for ev in b.events)]
        return bool(builders) and all(
            any(_names_the_body(s.name) and not self._per_attempt(b, s.sources) for s in b.sinks)
            or any(self._builds_keyed_body(b.events[j], b, depth + 1) for j in b.returns)
            for b in builders)

    def _mints(self, value: list | None, depth: int = 0) -> bool:
        """Is a Value made per attempt: a call of the clock or of randomness in it (`str(uuid4())`,
        `uuid4().hex`)?"""
        if value and value[0] == "name" and value[1] and "()" in value[1]:
            value = ["call", value[1].partition("()")[0], [], {}]
        if not value or depth > 4 or value[0] != "call":
            return False
        name = self.canonical(value[1]) or value[1]
        return bool(name) and (name in self.catalog.random or name in self.catalog.clocks) or any(
            self._mints(a, depth + 1) for a in (*value[2], *value[3].values()))

    def _functions_by_name(self) -> dict[str, list[FunctionSummary]]:
        out: dict[str, list] = {}
        for fn in self.functions.values():
            out.setdefault(fn.name, []).append(fn)
        return out

    def _per_attempt(self, fn: FunctionSummary, sources) -> bool:
        """Is a value made per attempt (from the clock or randomness): no key at all."""
        return any(fn.events[j].kind == "call" and ((name := self.event_name(fn.events[j])) in self.catalog.random
                                                    or name in self.catalog.clocks) for j in sources)

    def sends_a_read(self, fn: FunctionSummary, index: int) -> bool:
        """An HTTP call that only reads is idempotent: a method given as a variable, or a request
        built elsewhere (`session.send(prepared)`, `urlopen(Request(url, data=...))`), that the
        call sites of the application's own helpers make a GET (`_request("GET", ...)`, `_call(path)`
        leaving `payload=None`)."""
        return self._harmless_http(fn, index, "read")

    def moves_a_resource(self, fn: FunctionSummary, index: int) -> bool:
        """An HTTP write that moves one addressed resource to a state (`POST
        {base}/certificates/{id}/revocations`, `_req("POST", f"/submissions/{id}/transition/")`):
        the far end refuses or ignores a second transition to the state it is already in, so a
        retry repeats nothing. The URL must name the resource (a value spliced in) before the
        transition word."""
        return self._harmless_http(fn, index, "transition")

    def asks_a_question(self, fn: FunctionSummary, index: int) -> bool:
        """An HTTP POST to a search or query endpoint (`POST /pulp/api/v2/repositories/search/`,
        also through a helper whose callers pass such paths): it asks, and a retry asks again."""
        return self._harmless_http(fn, index, "query")

    def _harmless_http(self, fn: FunctionSummary, index: int, what: str) -> bool:
        """The call's HTTP effects are harmless to repeat (`_http_conditions`) always, or as every
        call of `fn` in the project calls it (a retried `_rest_post(endpoint, data)` that each
        caller gives a search path)."""
        conditions = self._http_conditions(fn, index, 0, what)
        if conditions is None:
            return False
        if not conditions:
            return True
        # A call of its own handing the parameter on as it is (a retry by recursion) passes what
        # its own callers passed.
        sites = [site for site in calls_of(self, fn)
                 if not (site.function is fn and all((bound_argument(fn, site.event, cond[1]) or [])[:2] == ["param", cond[1]]
                                                     for cond in conditions))]
        # The callers that run as part of a job decide: a UI's or a view's POST through the same
        # helper is not a job's effect.
        sites = [site for site in sites if site.function.qualname in self.job_context] or sites
        # A caller named for asking (`get_token`, `_fetch_all`) asks through the shared helper, as
        # it would asking directly.
        return bool(sites) and all(
            (what == "query" and asks_by_name(site.function.name))
            or not any(self._condition_writes(cond, bound_argument(fn, site.event, cond[1])) for cond in conditions)
            for site in sites)

    def _http_conditions(self, fn: FunctionSummary, index: int, depth: int, what: str) -> tuple | None:
        """When this call's HTTP effects are all harmless to repeat (`what`: "read", "transition"
        or "query"): () always; None never (a write, or not known); else the conditions on
        `fn`'s parameters, each of which must hold at its call sites: `("method", param, call)`
        (the literal method its callers pass reads), `("body", param)` (its callers pass None, or
        leave a None default: no body, so urllib sends a GET), `("url", param)` (its callers pass
        a path that ends in a transition of an addressed resource), `("query", param)` (a path
        that ends in a search)."""
        memo = self.once(f"http {what} conditions", dict)
        key = (fn.qualname, index)
        if key in memo:
            return memo[key]
        memo[key] = None  # on a cycle: a write
        found = memo[key] = self._http_conditions_of(fn, index, depth, what) if depth < 8 else None
        return found

    def _http_conditions_of(self, fn: FunctionSummary, index: int, depth: int, what: str) -> tuple | None:
        event = fn.events[index]
        direct = self.direct_effect(fn, event)
        if direct is not None:
            if direct.kind != "http":
                return None
            if what == "read":
                return self._request_conditions(fn, event, direct)
            if what == "query":
                return () if asks_by_name(fn.name) else _query_conditions(_url_of(event, direct.chain[-1]))
            return _transition_conditions(_url_of(event, direct.chain[-1]))
        callees = self.callees(event)
        if len(callees) != 1:
            return None
        callee = callees[0]
        effects = self.call_effects(callee.qualname) if callee.qualname != fn.qualname else []
        if not effects:
            return None
        if what == "query" and asks_by_name(fn.name):
            # An API client's `fetch_thread_list` handing a query to the shared `graphql(req)` that
            # POSTs every request: its name says what this request does, not the helper's.
            return () if all(ce.path.kind == "http" for ce in effects) else None
        out: list = []
        for ce in effects:
            inner = self._http_conditions(callee, ce.event_index, depth + 1, what)
            if inner is None:
                return None
            for cond in inner:
                given = bound_argument(callee, event, cond[1])
                if given is not None and given[0] == "param":
                    out.append((cond[0], given[1], *cond[2:]))
                elif self._condition_writes(cond, given):
                    return None
        return tuple(out)

    def _condition_writes(self, cond: tuple, given: list | None) -> bool:
        """Does a call site that passes `given` (None: not known) for the condition's parameter write?"""
        if cond[0] == "url":
            return _transition_conditions(given) != ()
        if cond[0] == "query":
            return _query_conditions(given) != ()
        if given is not None and given[0] == "either":
            return any(self._condition_writes(cond, option) for option in options(given))
        if given is None or given[0] != "lit":
            return True
        if cond[0] == "method":
            return self.catalog.method_writes(cond[2], given[1])
        return given[1] is not None

    def _request_conditions(self, fn: FunctionSummary, event: Event, effect: EffectPath) -> tuple | None:
        """The conditions under which a direct HTTP call reads (see `_http_conditions`)."""
        name = effect.chain[-1]
        if name not in self.catalog.senders:
            if not any(name in names for _, names, _ in self.catalog.method_kinds):
                return None  # `requests.post(url)`: its name says its method, a write
            method = event.args[0] if event.args else event.kwargs.get("method")
            return (("method", method[1], name),) if method and method[0] == "param" else None
        out: list = []
        own = self.catalog.builders.get(name)
        method = _argument(event.args, event.kwargs, own[0]) if own is not None and own[0] else None
        if method is not None and method != ["lit", None]:  # `fetch(url, method="POST")`: the call says
            if method[0] == "param":
                return (("method", method[1], name),)
            return None if self._condition_writes(("method", None, name), method) else ()
        if own is not None:
            body = _argument(event.args, event.kwargs, own[1])
            if body is not None and body != ["lit", None]:
                found = self._body_conditions(fn, body, _sources(event, own[1]))
                if found is None:
                    return None
                out.extend(found)
        request = event.args[0] if event.args else None
        built = None
        if request and request[0] == "call" and self.canonical(request[1]) in self.catalog.builders:
            built = (self.canonical(request[1]), request[2], request[3], None)
        else:
            for j in (event.argsrc[0] if event.argsrc else ()):
                other = fn.events[j]
                other_name = self.event_name(other) if other.kind == "call" else None
                if other_name in self.catalog.builders and other_name not in self.catalog.senders:
                    built = (other_name, other.args, other.kwargs, other)
                    break
        if built is None:
            helper = self._built_by_helper(fn, event)
            if helper is None:
                return tuple(out)  # a URL: a GET (a request given from elsewhere is not followed)
            return None if helper is True else (*out, *helper)
        builder, args, kwargs, made = built
        method_at, body_at = self.catalog.builders[builder]
        method = _argument(args, kwargs, method_at) if method_at else None
        if method is not None and method != ["lit", None]:
            if method[0] == "param":
                return (*out, ("method", method[1], builder))
            return None if self._condition_writes(("method", None, builder), method) else tuple(out)
        body = _argument(args, kwargs, body_at) if body_at else None
        if body is None or body == ["lit", None]:
            return tuple(out)
        found = self._body_conditions(fn, body, _sources(made, body_at) if made is not None else ())
        return None if found is None else (*out, *found)

    def _built_by_helper(self, fn: FunctionSummary, event: Event) -> tuple | bool | None:
        """A request an application helper builds and returns (`Session().send(prepare(hook,
        body))`, `return Request("POST", url).prepare()`): True when it writes, the conditions on
        `fn`'s parameters when the caller's argument decides its method, None when no builder is seen."""
        for j in (event.argsrc[0] if event.argsrc else ()):
            made = fn.events[j]
            helpers = self.callees(made) if made.kind == "call" else []
            if len(helpers) != 1:
                continue
            helper = helpers[0]
            for k in _returned_calls(helper):
                inner = helper.events[k]
                builder = self.canonical(inner.name) if inner.kind == "call" else None
                if builder not in self.catalog.builders or builder in self.catalog.senders:
                    continue
                method_at, body_at = self.catalog.builders[builder]
                method = _argument(inner.args, inner.kwargs, method_at) if method_at else None
                if method is None or method == ["lit", None]:
                    body = _argument(inner.args, inner.kwargs, body_at) if body_at else None
                    if body is None or body == ["lit", None]:
                        return ()
                    method, builder = body, None  # urllib: a body makes it a POST
                if method[0] == "param":
                    method = bound_argument(helper, made, method[1])
                if method is not None and method[0] == "param":
                    return (("method" if builder else "body", method[1], *((builder,) if builder else ())),)
                if builder is None:
                    return self._condition_writes(("body", None), method) or ()
                if method is None or method[0] not in ("lit", "either"):
                    return ()  # a method the data says (`params.method`): not followed, as a request from elsewhere
                return self._condition_writes(("method", None, builder), method) or ()
        return None

    def _body_conditions(self, fn: FunctionSummary, body: list, sources) -> list | None:
        """A body that is a parameter, or is made from parameters (`json.dumps(payload).encode()`):
        empty when the callers pass None for them. Any other body writes (None)."""
        if body[0] == "param":
            return [("body", body[1])]
        if body[0] == "lit":
            return None
        params = {a[1] for j in sources for a in (*fn.events[j].args, *fn.events[j].kwargs.values())
                  if a and a[0] == "param"}
        return [("body", p) for p in sorted(params)] or None

    def key_marks(self, fn: FunctionSummary) -> list[int]:
        """Lines where a key-named value is written without a call feeding it (dict keys)."""
        return [s.line for s in fn.sinks if is_key_name(s.name)]

    def records_key(self, event: Event, fn: FunctionSummary | None = None) -> bool:
        """A database write that records an idempotency key.

        The row must say so: a key-named field (`idempotency_key=`, `dedup_id=`), or a plain key
        field (`key=`, `event_key=`) in a table named for it (`ProcessedEvent`, `IdempotencyKey`,
        `Outbox`) or with evidence that it gates the work (`_key_gates`). A product's `key`, a
        settings table's `create(key=...)` or a log row is not a key record. `fn` is the function
        the event is in (looked up when not given).
        """
        if event.kind != "call" or self.writes_db(event, fn) is None:
            return False
        name = self.event_name(event)
        if event.attr in ("create", "get_or_create", "update_or_create", "add", "bulk_create"):
            fields = list(event.kwargs)
            model = (name or "").split(".objects")[0].rpartition(".")[2]
            if event.attr == "add" and event.args and event.args[0][0] == "call":
                # SQLAlchemy: session.add(ProcessedEvent(key=...))
                fields = list(event.args[0][3])
                model = (event.args[0][1] or "").rpartition(".")[2]
            if self._records_by_fields(event, fn, fields, model):
                return True
        statement = self._core_statement(event, fn)
        if statement is not None and statement[0] == "insert":
            # SQLAlchemy Core: conn.execute(insert(processed_events).values(key=...))
            if self._records_by_fields(event, fn, statement[2], statement[1]):
                return True
        if event.sql and event.sql in ("insert", "upsert", "merge"):
            first = event.args[0] if event.args else None
            if first and first[0] == "call" and first[2]:
                first = first[2][0]  # text("INSERT ..."), sql.SQL("INSERT ...")
            text = first[1] if first and first[0] == "lit" else ""
            if isinstance(text, str) and _KEY_MODEL.search(text):
                return True
        return False

    def _records_by_fields(self, event: Event, fn: FunctionSummary | None, fields: list, table: str) -> bool:
        if self._made_or_found(event, fn):
            return False
        if any(is_key_name(k) for k in fields):
            return True
        keyed = [k for k in fields if k != "**" and is_record_key_field(k)]
        return bool(keyed) and bool(_KEY_MODEL.search(table) or self._key_gates(event, fn, keyed))

    def _made_or_found(self, event: Event, fn: FunctionSummary | None) -> bool:
        """A row created where a unique violation hands back the row already there (`try: return
        Run.objects.create(dedupe_key=k) except IntegrityError: return Run.objects.filter(...).first()`):
        a get-or-create whose caller goes on either way, so the key gates nothing."""
        fn = fn or self._function_of(event)
        if fn is None or not event.tries:
            return False
        return any(h.try_id in event.tries and _catches_unique_violation(h)
                   and any(h.try_id in ev.handlers and i in fn.returns for i, ev in enumerate(fn.events))
                   for h in fn.handlers)

    def _key_gates(self, event: Event, fn: FunctionSummary | None, fields: list[str]) -> bool:
        """Evidence that a row with a plain key field is a dedup record: `get_or_create`'s
        `created` tested, the write in a try that catches a unique violation, or a check of the
        same model by the same field before it (`if X.objects.filter(key=k).exists(): return`)."""
        if event.flag_tested and event.attr in ("get_or_create", "update_or_create"):
            return True
        fn = fn or self._function_of(event)
        if fn is None:
            return False
        if any(h.try_id in event.tries and _catches_unique_violation(h) for h in fn.handlers):
            return True
        manager = orm_manager(self.event_name(event))
        if manager is None:
            return False
        for other in fn.events:
            if other is event:
                break
            if (other.in_test and other.kind == "call" and any(k in other.kwargs for k in fields)
                    and (self.event_name(other) or "").startswith(manager)):
                return True
        return False

    def checked_record(self, fn: FunctionSummary, write: Event) -> bool:
        """A row written after a check that no such row exists, by the same fields and values
        (`if not X.objects.filter(parent=p, day=d).exists(): X.objects.create(parent=p, day=d)`):
        an attempt run again finds the row and skips what follows it, so that is not repeated."""
        if write.kind != "call" or write.attr not in _CHECKED_WRITES or self.writes_db(write, fn) is None:
            return False
        manager = orm_manager(self.event_name(write))
        if manager is None:
            return False
        fields = {k: v for k, v in write.kwargs.items() if k not in ("**", "defaults")}
        for check in fn.events:
            if check is write:
                return False
            keys = [k for k in check.kwargs if k != "**"]
            if (check.in_test and check.kind == "call" and keys and set(check.loops) == set(write.loops)
                    and (self.event_name(check) or "").startswith(manager)
                    and all(k in fields and check.kwargs[k] == fields[k] for k in keys)):
                return True
        return False

    def _function_of(self, event: Event) -> FunctionSummary | None:
        """The function an event is in (for callers that ask about an event alone)."""
        owners = self.once("functions by event", lambda: {id(ev): fn for fn in self.functions.values() for ev in fn.events})
        return owners.get(id(event))

    def writes_db(self, event: Event, fn: FunctionSummary | None = None) -> Confidence | None:
        """A database write, and how sure we are: `classify.db_write`, plus SQLAlchemy Core
        statements executed (`conn.execute(update(t)...)`) and sessions from a sessionmaker
        (`SessionLocal.begin().add`), less what only looks like one: `text("UPDATE ...")` (the
        `execute` that runs it writes) and `update` on a row or dict a query returned
        (`X.objects.values().first().update(...)`)."""
        if event.kind != "call":
            return None
        name = self.event_name(event) or ""
        attr = event.attr
        if attr == "text" or name in SQL_TEXT_BUILDERS or name.partition("()")[0] in SQL_WRITE_STATEMENTS:
            return None  # builds a statement; executing it writes
        if self._core_statement(event, fn) is not None:
            return Confidence.HIGH
        found = db_write(name or None, attr, event.sql)
        if found is not None and not event.sql and _ROW_RESULT.search(name.rpartition(".")[0]):
            if attr == "update" or _VALUES_ROW.search(name):
                return None  # a dict's or a row's method, not a queryset's
        if found is None and attr in ("add", "add_all", "merge", "delete") and self._is_session(name.rpartition(".")[0]):
            return Confidence.MEDIUM
        return found

    def _core_statement(self, event: Event, fn: FunctionSummary | None) -> tuple[str, str, list] | None:
        """(verb, table, fields) of a SQLAlchemy Core statement an `execute` runs."""
        if event.attr not in ("execute", "exec", "execute_async") or not event.args:
            return None
        first = event.args[0]
        if first[0] not in ("call", "name") or not first[1]:
            return None
        verb = SQL_WRITE_STATEMENTS.get(first[1].partition("()")[0])
        if verb is None:
            return None
        fields = list(first[3]) if first[0] == "call" else []
        table = ""
        fn = fn or self._function_of(event)
        if fn is not None and event.argsrc:
            for j in event.argsrc[0]:
                src = fn.events[j] if j < len(fn.events) else None
                if src is None or src.kind != "call":
                    continue
                if src.attr == "values":
                    fields.extend(k for k in src.kwargs if k not in fields)
                if src.name in SQL_WRITE_STATEMENTS and src.args and src.args[0][0] in ("name", "ref"):
                    table = (src.args[0][1] or "").rpartition(".")[2]
        return verb, table, fields

    def _is_session(self, receiver: str) -> bool:
        return bool(_SESSION.search(receiver)) and not receiver.startswith(_NOT_DB_SESSIONS)

    def _decorated_transaction(self, fn: FunctionSummary) -> bool:
        return any(self.catalog.is_transaction(self.canonical(deco_name(d[0]))) for d in fn.decorators)

    def transaction_regions(self, fn: FunctionSummary) -> set[int]:
        """`with` regions that are one transaction: `transaction.atomic()`, `session.begin()`,
        `conn.transaction()`, `with psycopg.connect(dsn) as conn:` (not with autocommit=True)."""
        out = set()
        for r in fn.regions:
            name = self.canonical(r.name)
            if name in TRANSACTION_CONNECTS or (name and name.endswith("()") and name[:-2] in TRANSACTION_CONNECTS):
                auto = r.kwargs.get("autocommit")
                if auto and auto[0] == "lit" and auto[1] is True:
                    continue
                out.add(r.id)
            elif self.catalog.is_transaction(name):
                out.add(r.id)
        return out

    def function_is_transactional(self, fn: FunctionSummary) -> bool:
        """A decorator runs it in one transaction (`@transaction.atomic`), or every call of it in
        the program is inside one (a helper only an atomic function calls)."""
        return self._decorated_transaction(fn) or self._always_in_transaction(fn.qualname, 0)

    def _always_in_transaction(self, qualname: str, depth: int) -> bool:
        memo = self.once("always in a transaction", dict)
        if qualname in memo:
            return memo[qualname]
        memo[qualname] = False  # on a cycle: not shown
        if qualname in self.jobs or qualname in self.retry_wrappers:
            return False  # the framework calls it too
        sites = self._call_sites().get(qualname)
        if not sites or depth > 4:
            return False
        for caller, ev in sites:
            if caller.name == MODULE_CODE:
                return False
            if self._decorated_transaction(caller) or self.transaction_regions(caller).intersection(ev.regions):
                continue
            if not self._always_in_transaction(caller.qualname, depth + 1):
                return False
        memo[qualname] = True
        return True

    def _call_sites(self) -> dict[str, list[tuple[FunctionSummary, Event]]]:
        """Function -> every (caller, call event) of the program that runs it."""
        def build() -> dict:
            out: dict[str, list] = {}
            for fn in self.functions.values():
                for ev in fn.events:
                    for callee in self.callees(ev):
                        if callee is not fn:
                            out.setdefault(callee.qualname, []).append((fn, ev))
            return out
        return self.once("call sites", build)

    def key_records(self, fn: FunctionSummary) -> list[int]:
        """Events of a function that record an idempotency key: a write that does itself
        (`records_key`), or a call of a helper that records one in a transaction of its own
        (`@transaction.atomic def record_key(...)`), which the caller's writes are then outside
        unless a transaction of the caller holds both."""
        out = []
        for i, ev in enumerate(fn.events):
            if ev.kind != "call":
                continue
            if self.records_key(ev, fn):
                out.append(i)
                continue
            if any(callee is not fn and self._records_key_in_transaction(callee.qualname, False, 0)
                   for callee in self.callees(ev)):
                out.append(i)
        return out

    def _records_key_in_transaction(self, qualname: str, inside: bool, depth: int) -> bool:
        memo = self.once("records a key in a transaction", dict)
        key = (qualname, inside)
        if key in memo:
            return memo[key]
        memo[key] = False
        fn = self.functions.get(qualname)
        if fn is None:
            return False
        inside = inside or self._decorated_transaction(fn)
        txns = self.transaction_regions(fn)
        found = False
        for ev in fn.events:
            if ev.kind != "call":
                continue
            held = inside or bool(txns.intersection(ev.regions))
            if self.records_key(ev, fn):
                found = held and not self._key_and_work_together(fn, ev, inside, txns)
            elif depth < 3:
                found = any(callee is not fn and self._records_key_in_transaction(callee.qualname, held, depth + 1)
                            for callee in self.callees(ev))
            if found:
                break
        memo[key] = found
        return found

    def _key_and_work_together(self, fn: FunctionSummary, record: Event, inside: bool, txns: set) -> bool:
        """The helper writes other rows in the transaction that records its key (`with atomic(): if
        seen: continue; Notification.objects.create(dedupe_key=k); deliveries.update(...)`): a unit
        that is idempotent by itself, whose key dedups its own rows, not its caller's work."""
        shared = txns.intersection(record.regions)
        return any(ev is not record and ev.kind == "call" and (inside or shared.intersection(ev.regions))
                   and self.writes_db(ev, fn) is not None for ev in fn.events)

    def same_transaction(self, fn: FunctionSummary, a: Event, b: Event) -> bool:
        """Are two events of a function in one database transaction? Both in one transaction
        region, the function run in one, or two writes on one session or connection with no
        `commit()` of it between them (autobegin: `session.add(...)` twice, then `commit()`). A
        call of a helper that opens its own transaction shares none outside it."""
        if self.function_is_transactional(fn):
            return True
        txns = self.transaction_regions(fn)
        in_a, in_b = txns.intersection(a.regions), txns.intersection(b.regions)
        if in_a & in_b:
            return True
        if in_a or in_b:
            return False
        return self._one_unit_of_work(fn, a, b)

    def _one_unit_of_work(self, fn: FunctionSummary, a: Event, b: Event) -> bool:
        """Two writes on one session or non-autocommit connection, no commit between them."""
        if a.kind != "call" or b.kind != "call" or self.writes_db(a, fn) is None or self.writes_db(b, fn) is None:
            return False
        unit = self._unit_of(fn, a)
        if unit is None or unit != self._unit_of(fn, b) or self._autocommit(fn, unit):
            return False
        receiver = (self.event_name(a) or "").rpartition(".")[0]
        positions = [i for i, ev in enumerate(fn.events) if ev is a or ev is b]
        if len(positions) != 2:
            return False
        ends = [i for i, ev in enumerate(fn.events)
                if ev.kind == "call" and ev.attr in TRANSACTION_ENDS and self._unit_of(fn, ev) == unit]
        known = self._is_session(receiver) or receiver.startswith(UNIT_OF_WORK_CONNECTIONS)
        if not known and not any(fn.events[i].attr == "commit" for i in ends):
            return False  # nothing says its statements wait for a commit
        return not any(positions[0] < i < positions[1] for i in ends)

    def _unit_of(self, fn: FunctionSummary, ev: Event) -> tuple | None:
        """Which session or connection a call is made on: the call that made it, the `with` that
        bound it, or its resolved name."""
        receiver = (self.event_name(ev) or "").rpartition(".")[0]
        if not receiver:
            return None
        if ev.receiver_src:
            return ("call", min(ev.receiver_src))
        for r in fn.regions:  # outermost first
            if r.id in ev.regions and r.name:
                made = f"{self.canonical(r.name)}()"
                if receiver == made or receiver.startswith(made + "."):
                    return ("with", r.id)
        return ("name", receiver)

    def _autocommit(self, fn: FunctionSummary, unit: tuple) -> bool:
        kwargs = {}
        if unit[0] == "call" and unit[1] < len(fn.events):
            kwargs = fn.events[unit[1]].kwargs
        elif unit[0] == "with":
            kwargs = next((r.kwargs for r in fn.regions if r.id == unit[1]), {})
        auto = kwargs.get("autocommit")
        return bool(auto) and auto[0] == "lit" and auto[1] is True


def orm_manager(name: str | None) -> str | None:
    """The Django model manager an ORM call goes through, ending in a dot (`app.models.Receipt.objects.`
    for `app.models.Receipt.objects.filter().delete`); None for any other call."""
    return name.split(".objects.")[0] + ".objects." if name and ".objects." in name else None


def _catches_unique_violation(handler) -> bool:
    return any(t and t.rpartition(".")[2] in UNIQUE_VIOLATIONS for t in handler.types)


_CREATED_FLAGS = ("get_or_create", "aget_or_create", "update_or_create", "aupdate_or_create")
_CHECKED_WRITES = ("create", "acreate", *_CREATED_FLAGS)


def _has_key_field(value: list, depth: int = 0, minted=None) -> bool:
    """A dict Value with a key or message-id field, at any depth (`{"data": {"idempotency_key": k}}`),
    whose value is not made per attempt (`minted(value)`: `str(uuid.uuid4())`, the clock)."""
    if not value or value[0] != "dict" or depth > 4:
        return False
    for k, v in value[1]:
        if k and k[0] == "lit" and isinstance(k[1], str) and _names_the_body(k[1]) and not (minted and minted(v)):
            return True
        if _has_key_field(v, depth + 1, minted):
            return True
    return False


def _url_of(event: Event, call: str) -> list | None:
    """The URL Value of a direct HTTP call: `request(method, url)` / `post(url)`, or `url=`."""
    if "url" in event.kwargs:
        return event.kwargs["url"]
    at = 1 if call.rpartition(".")[2] in ("request", "fetch", "open") else 0
    return event.args[at] if at < len(event.args) else None


def _path_end(url: list | None) -> tuple | None:
    """Where a URL Value's path ends: `("param", name)` when a parameter is spliced in last (its
    callers say), else `("words", words, addressed)`: the path segments after the last value
    spliced in, and whether a value is spliced in after a `/` (it addresses a resource); None for
    what is not read."""
    if not url:
        return None
    if url[0] == "param":
        return ("param", url[1])
    if url[0] == "lit" and isinstance(url[1], str):
        addressed, tail = "", url[1]
    elif url[0] == "fstr":
        parts = url[1]
        if parts and parts[-1][0] == "param":
            return ("param", parts[-1][1])
        addressed, _, tail = "".join(str(p[1]) if p[0] == "lit" else "\x00" for p in parts).rpartition("\x00")
    else:
        return None
    return ("words", [w for w in re.split(r"[/?#]", tail.partition("?")[0]) if w], "/" in addressed)


def _transition_conditions(url: list | None) -> tuple | None:
    """() when the URL ends in a transition of an addressed resource; `(("url", param),)` when
    that depends on the path a parameter brings (spliced at the end); None otherwise. A literal
    path (`"/jobs/run"`) addresses no resource (it names a collection's action), nor does one with
    only a base URL spliced in."""
    end = _path_end(url)
    if end is None:
        return None
    if end[0] == "param":
        return (("url", end[1]),)
    _, words, addressed = end
    return () if addressed and words and all(_is_transition(w) for w in words) else None


def _query_conditions(url: list | None) -> tuple | None:
    """() when the URL's path ends in a search (`f"{root}/repositories/search/"`, a literal
    `"/_search"`); `(("query", param),)` when that depends on the path a parameter brings
    (spliced at the end); also a URL held in a name that says only that (`self.search_url`,
    `QUERY_ENDPOINT`); None otherwise."""
    if url and url[0] == "name":
        words = set(name_words(str(url[1]).rpartition(".")[2])) - {"url", "uri", "endpoint", "path", "api"}
        return () if words and words <= QUERIES else None
    end = _path_end(url)
    if end is None:
        return None
    if end[0] == "param":
        return (("query", end[1]),)
    words = end[1]
    return () if words and _asking_segment(words[-1]) else None


def _asking_segment(segment: str) -> bool:
    """A path's last segment that names a question: a search (`_search`, `lookup`), or a getter
    (`getTransactionById`, `get_status`, RPC-style glued `gettransactionbyid`) that names no change."""
    glued = re.sub(r"[-_.]", "", segment.lower())
    if glued in QUERIES:
        return True
    if len(name_words(segment)) > 1:
        return asks_by_name(segment)
    return glued.startswith("get") and len(glued) > 3 and glued.isalpha() \
        and not any(word in glued for word in CHANGE_WORDS if len(word) > 3)  # `getorcreateuser`


def asks_by_name(name: str) -> bool:
    """A function named for asking (`get_status`, `fetch_rates`, `embed_with_hf`, `classify`; after
    a word naming the channel: `_api_fetch_operations`) and
    for nothing that changes anything (`get_or_create_user`, `fetch_and_store`): the POSTs it
    makes itself ask a question in a body (an inference, a query too large for a URL)."""
    words = name_words(name)
    if len(words) > 1 and words[0] in _CHANNELS:
        words = words[1:]  # `_api_fetch_operations`: the API's, asking
    return bool(words) and words[0] in ASKING_VERBS and not MUTATING_WORDS.intersection(words)


# A first word naming what a method goes through, not what it does (`api_fetch_rates`).
_CHANNELS = frozenset({"api", "http", "https", "rest", "remote", "rpc", "graphql", "gql", "web", "ws"})


def _is_transition(word: str) -> bool:
    return re.sub(r"[-_.]", "", word.lower()) in TRANSITIONS


def _names_the_body(name: str) -> bool:
    return is_key_name(name) or is_message_id(name)


def _argument(args: list, kwargs: dict, at: tuple | None) -> list | None:
    """The Value passed at (position, keyword), if any."""
    if at is None:
        return None
    position, keyword = at
    if keyword in kwargs:
        return kwargs[keyword]
    return args[position] if position is not None and position < len(args) else None


def _sources(event: Event, at: tuple | None) -> tuple:
    """The events feeding the argument at (position, keyword)."""
    if at is None:
        return ()
    position, keyword = at
    if keyword in event.kwsrc:
        return tuple(event.kwsrc[keyword])
    return tuple(event.argsrc[position]) if position < len(event.argsrc) else ()


# Tables whose rows record that work was done (or is to be done exactly once).
_KEY_MODEL = re.compile(r"(?i)idempot|dedup|processed|handled|outbox|inbox")
# A row or dict a query returned (`.first()`, `.get()`): its `update` is not a queryset's.
_ROW_RESULT = re.compile(r"\.a?(get|first|last|latest|earliest)\(\)$")
_VALUES_ROW = re.compile(r"\.values(_list)?\(\)\.")
# A SQLAlchemy session as resolved: `Session()`, `SessionLocal()`, `SessionLocal.begin()`, `db.session`.
_SESSION = re.compile(r"(?i)(^|\.)@?\w*session\w*(\(\))?(\.begin\(\))?$")
_NOT_DB_SESSIONS = ("requests.", "httpx.", "aiohttp.", "niquests.", "flask.", "werkzeug.", "boto3.", "aioboto3.", "botocore.")


def _returned_calls(fn: FunctionSummary) -> list[int]:
    """The calls a function's return values are made by, and the objects those are called on
    (`return Request("POST", url).prepare()`, `r = Request(...); return r.prepare()`)."""
    seen: set[int] = set()
    todo = list(fn.returns)
    while todo:
        k = todo.pop()
        if k in seen or k >= len(fn.events):
            continue
        seen.add(k)
        todo.extend(fn.events[k].receiver_src)
    return sorted(seen)
