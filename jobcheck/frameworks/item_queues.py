"""Work queues of the application's own, read by what their methods do: a class whose method puts
its parameter into a collection of the instance, and whose other method takes from that
collection and runs what it took, is a queue; every object its users put in it runs:

    class GenericQueue:
        def add_item(self, item):
            self.queue.append(item)                  # also appendleft, insert, put, put_nowait
        def run(self):
            self.current = self.queue.pop(0)         # also popleft, get, get_nowait
            self.current.start()                     # a thread: its `run`; or the method it calls

    search_queue.add_item(BacklogItem(show))         # BacklogItem(QueueItem(threading.Thread)).run is a job

The job is the item's class's method (its `run` for a started thread), found from the object
constructed where the item is put. A class that fills a list it never runs from (a registry) is
not a queue. Nothing retries an item; each put runs once.

A module-level queue of callables is read alike: a function that puts what it is given there
(alone or first in a tuple) and a function that takes from the same queue and calls what it took:

    work = queue.Queue()
    def defer(fn, *args):
        work.put((fn, args))
    def worker():
        while True:
            fn, args = work.get()
            fn(*args)

    defer(save_page, page)                           # save_page is a job
"""

from __future__ import annotations

from ..analysis.jobs import Registration
from ..analysis.names import target
from ..analysis.program import bound_argument, calls_named
from ..analysis.summary import MODULE_CODE
from ..analysis.project import Project
from .background_loops import THREAD_CLASSES
from .instances import constructed_class, method_body

_PUTS = ("append", "appendleft", "insert", "put", "put_nowait")
_TAKES = ("pop", "popleft", "get", "get_nowait", "heappop")


class ItemQueues:
    name = "queue"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        queues = _queues(project)
        regs = []
        for site in calls_named(project, tuple(queues)):
            ev = site.event
            callee = project.named_callee(ev)
            by_class = queues[ev.attr]
            if callee is not None:
                runs = by_class.get(callee.class_qualname)  # None: another class's method of that name
            else:  # an unresolved receiver: only if every queue with that put runs items alike
                runs = next(iter(by_class.values())) if len(set(by_class.values())) == 1 else None
            if runs is None:
                continue
            if runs == "keyed":  # only through a receiver that resolves: `register` is a common name
                if callee is not None:
                    regs.extend(_functions_put(project, site, callee, self.name))
                continue
            for cls in _items_put(project, site):
                fn = method_body(project, cls, {"start": "run", "call": "__call__"}.get(runs, runs))
                threaded = any(b in THREAD_CLASSES for b in project.class_bases(project.classes[cls]))
                if fn is not None and fn.class_qualname and (runs != "start" or threaded):
                    regs.append(Registration(fn.qualname, self.name, "enqueue", site.anchor))
        return regs + _module_queue_puts(project, self.name)


def _module_queue_puts(project: Project, framework: str) -> list[Registration]:
    """The functions put in a module-level queue that a function of the project takes from and
    calls what it took (`fn, args = work.get(); fn(*args)`): put there directly, or through a
    helper that puts its parameter (each of its callers' arguments)."""
    runs = _module_queues_run(project)
    regs = []
    for site in calls_named(project, _PUTS) if runs else ():
        ev = site.event
        queue = ev.ref.rpartition(".")[0] if ev.ref else None
        if queue not in runs or not ev.args:
            continue
        item = ev.args[-1]
        if item and item[0] == "seq" and item[1]:
            item = item[1][0]  # `(fn, args, kwargs)`: the callable first
        if item and item[0] == "param" and site.function.name != MODULE_CODE:
            regs.append(Registration("", framework, "enqueue", site.anchor, forward=(site.function.qualname, item[2], item[1])))
        elif (qualname := target(project, site.module, item)) is not None:
            regs.append(Registration(qualname, framework, "enqueue", site.anchor))
    return regs


def _module_queues_run(project: Project) -> set[str]:
    """Module-level queues a function takes an item from and calls it, or the first of its tuple."""
    out = set()
    for site in calls_named(project, _TAKES):
        ev = site.event
        if ev.ref and ev.name and any(other.kind == "call" and other.name in (f"{ev.name}()", f"{ev.name}()#0")
                                      for other in site.function.events):
            out.add(ev.ref.rpartition(".")[0])
    return out


def _queues(project: Project) -> dict[str, dict[str, str]]:
    """Put-method name -> {queue class or subclass: how its runner runs an item}."""
    def build() -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for cls in project.classes.values():
            methods = [f for m in cls.methods if (f := project.functions.get(f"{cls.qualname}.{m}")) is not None]
            puts = {}  # collection attribute -> put method
            keyed: set = set()  # collections an item is stored in under a key
            for fn in methods:
                for ev in fn.events:
                    held = _held(ev)
                    if held and len(held) == 2 and held[1] in _PUTS and ev.args and _given(fn, ev.args[-1]):
                        puts[held[0]] = fn.name
                # `self.events[name] = f` with the key ordered in another collection of the
                # instance (`heappush(self.queue, (when, name))`): a schedule, not a registry.
                if any(_orders(ev) for ev in fn.events):
                    for coll, _line, value in fn.item_stores:
                        if value and value[:1] == ["param"]:
                            puts.setdefault(coll, fn.name)
                            keyed.add(coll)
            for coll, put in puts.items():
                runs = _runner(methods, coll, keyed=coll in keyed)
                if runs == "call" and coll in keyed:
                    runs = "keyed"  # functions kept under a key and called when taken
                if runs is not None:
                    for qualname in (cls.qualname, *(sub.qualname for sub in project.subclasses(cls.qualname))):
                        out.setdefault(put, {})[qualname] = runs
        return out
    return project.once("item queues", build)


def _given(fn, value: list) -> bool:
    """A parameter's value, also one typed by its annotation (`def put(self, task: Task)`)."""
    return value[:1] == ["param"] or (value[:1] == ["name"] and str(value[1]).endswith("()") and len(fn.params) > 1)


def _held(ev) -> tuple[str, ...] | None:
    """`self.queue.append(...)` -> ("queue", "append"): the attribute of the instance a call is made
    on, and the method."""
    if ev.kind != "call" or not ev.name or "()." not in ev.name:
        return None
    return tuple(ev.name.rpartition("().")[2].split("."))


def _orders(ev) -> bool:
    """A call that puts something in a collection of the instance (`self.queue.append(...)`,
    `heapq.heappush(self.queue, ...)`)."""
    held = _held(ev)
    if held and len(held) == 2 and held[1] in (*_PUTS, "heappush"):
        return True
    first = ev.args[0] if ev.kind == "call" and ev.args else None
    return (ev.kind == "call" and (ev.name or "").endswith("heappush") and bool(first) and first[0] == "name"
            and "()." in str(first[1]))


def _runner(methods: list, coll: str, keyed: bool = False) -> str | None:
    """How a method of the class runs what it takes from `coll`: "start" (a thread), the method it
    calls on it (`task.execute()`: the one it calls, or `run` among several), or "call". An item
    kept under a key is run only by a loop that takes it (`self.handlers.get(name)()` once is a
    dispatch, not a queue)."""
    for fn in methods:
        taken = {attr for attr, _, receiver, _, value in fn.stores
                 if receiver == "self" and value and value[0] == "call" and value[1]
                 and value[1].rpartition("().")[2] in {f"{coll}.{t}" for t in _TAKES}}
        called = set()
        for ev in fn.events:
            held = _held(ev)
            if not held:
                continue
            if len(held) == 3 and held[0] == coll and held[1].removesuffix("()") in _TAKES:
                called.add(held[2])  # self.queue.pop(0).start()
            elif len(held) == 2 and held[0] == coll and held[1].endswith("()") and held[1][:-2] in _TAKES \
                    and (ev.loops or not keyed):
                called.add("call")  # f = self.events.pop(name); f(): the item is a callable
            elif len(held) == 2 and held[0] in taken:
                called.add(held[1])
            elif len(held) == 1 and held[0] in taken:
                called.add("call")
        for way in ("start", "run"):
            if way in called:
                return way
        if len(called) == 1:
            return called.pop()
    return None


def _functions_put(project: Project, site, put, framework: str) -> list[Registration]:
    """Functions put in a queue that calls what it takes (`schedule.add_event(flush, when)`): each
    is a job. A function of the caller's own that calls a parameter of the caller (a wrapper that
    re-adds itself: `add_periodic_event(f, t)` putting `def wrapper(): f(); ...`) hands the job on
    to what the caller's callers pass for that parameter."""
    regs = []
    stored = next((v for _coll, _line, v in put.item_stores if v and v[:1] == ["param"]), None)
    if stored is None:
        return regs
    value = bound_argument(put, site.event, stored[1])
    qualname = target(project, site.module, value)
    fn = project.functions.get(qualname or "")
    if fn is None:
        return regs
    outer = project.functions.get(qualname.rsplit(".<locals>.", 1)[0]) if ".<locals>." in qualname else None
    closure = next((ev.attr for ev in fn.events if ev.kind == "call" and ev.name is None and outer is not None
                    and ev.attr in outer.params and ev.attr not in ("self", "cls")), None)
    if closure is not None:
        index = outer.params.index(closure)
        # A wrapper that puts itself back runs what it wraps again and again.
        again = any(ev.kind == "call" and put in project.callees(ev) for ev in fn.events)
        regs.append(Registration("", framework, "schedule" if again else "enqueue", site.anchor,
                                 kind="periodic" if again else "task", forward=(outer.qualname, index, closure)))
    else:
        regs.append(Registration(qualname, framework, "enqueue", site.anchor))
    return regs


def _items_put(project: Project, site) -> list[str]:
    """The analysed classes whose instances a put call passes: constructed there, held in a typed
    variable, or constructed by a call feeding the argument (a variable assigned in two arms)."""
    found = []
    for i, value in enumerate(site.event.args):
        cls = constructed_class(project, site.module, value)
        if cls is not None:
            found.append(cls)
        elif i < len(site.event.argsrc):
            feeding = (site.function.events[e] for e in site.event.argsrc[i])
            found.extend(cls for ev in feeding if ev.kind == "call" and ev.name
                         and (cls := constructed_class(project, site.module, ["call", ev.name, [], {}])) is not None)
    return found


FRAMEWORK = ItemQueues()
