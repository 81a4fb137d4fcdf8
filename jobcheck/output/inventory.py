"""The job inventory: every entry point found, with its framework, how it is triggered, the retry
settings that apply to it (written or the framework's default, live or dead configuration), its
delivery guarantee, what stands between two of its runs (locks, overlap settings), and the
external effects it makes, directly or through helpers: unguarded, and behind a guard. It is what a reviewer reads
first, and what `jobcheck jobs` / `jobcheck check --list-jobs` print.

The JSON shape (`--output-format json`) is a public interface, documented in the README: keys are
only ever added, never renamed or removed.
"""

from __future__ import annotations

import collections

import json
from typing import IO

from ..analysis.delivery import delivery_of
from ..analysis.facts import OVERLAP_SETTINGS, guarded_effects, locks_taken
from ..analysis.jobs import JobSite
from ..analysis.project import Project

VERSION = 1


def rows(project: Project, paths: set[str] | None = None) -> list[dict]:
    """One JSON-able dict per job defined in `paths` (default: anywhere), per function a retry
    decorator or a retry loop of its own runs again (kind `retried`), per function started once in the background (kind
    `background`), per implementation a job hands its work to through a hook (kind `dispatched`) and per step a job's
    loop runs in every round (kind `step`), ordered by path and line. Jobs in context modules (files imported by the checked
    ones, not checked themselves) are left out, as their findings are."""
    # In the order of precedence where one function is listed twice (the sort below is stable): a
    # loop's step, started in every round, before a start of it once.
    listed = [*project.jobs.values(), *project.retried_functions.values(), *project.loop_steps.values(),
              *project.started_functions.values(), *project.dispatched_functions.values()]
    sites = sorted((s for s in listed if paths is None or s.path in paths),
                   key=lambda s: (s.path, s.anchor.line, s.anchor.col, s.display))
    out, seen = [], set()
    for site in sites:
        # One file read under two module names (a checked file that is also imported as
        # context under another name) is still one job; two hooks of one class are two.
        module = project.function_module.get(site.function)
        local = site.function[len(module.module) + 1:] if module is not None else site.function
        where = (site.path, site.anchor.line, site.anchor.col, local)
        if where not in seen:
            seen.add(where)
            out.append(_row(project, site))
    return out


def _row(project: Project, site: JobSite) -> dict:
    module = project.function_module.get(site.function)
    module_name = module.module if module is not None else ""
    name = site.display[len(module_name) + 1:] if module_name and site.display.startswith(module_name + ".") else site.display
    return {
        "job": site.display,
        "module": module_name,
        "name": name,
        "function": site.function,
        "framework": site.framework,
        "kind": site.kind,
        "path": site.path,
        "line": site.anchor.line,
        "column": site.anchor.col + 1,
        "triggers": sorted(site.triggers),
        "retry": _retry(project, site),
        "delivery": _delivery(project, site),
        "settings": {k: _render(v) for k, v in sorted(site.settings.items())},
        "effects": [
            {"kind": p.kind, "chain": [site.function, *p.chain], "confidence": p.confidence.value}
            for p in sorted(project.reachable_effects(site.function), key=lambda p: (p.kind, p.chain))
        ] if site.function in project.functions else [],
        "guarded_effects": [{"kind": kind, "call": call, "function": where}
                            for kind, call, where in guarded_effects(project, site.function)],
        "overlap": {
            "locks": locks_taken(project, site.function),
            "settings": {k: _render(v) for k, v in sorted(site.settings.items()) if k in OVERLAP_SETTINGS},
        },
    }


def _retry(project: Project, site: JobSite) -> dict | None:
    """The policy that really retries the job, else the written one that configures nothing."""
    live = project.retry_of(site.function) if site.function in project.functions else None
    policy, source = live, "framework"
    if live is None:
        policy = site.retry
        if policy is None and site.kind == "background":  # started once: its own retry loop, if any
            policy = next((p for p in project.retry_policies(site.function) if p.source == "loop"), None)
        if policy is not None and policy.source == "loop":  # a retry loop in the body: always live
            source, live = "loop", policy
    elif live is not site.retry or site.kind == "retried":
        source = live.source if live.source in ("recursion", "requeue", "once") else "decorator"
    if policy is None:
        return None
    return {
        "setting": policy.setting,
        "source": source,
        "live": live is not None,
        "from_default": policy.from_default,
        "max_retries": policy.limit,
        "bounded": policy.bounded,
        "count_from": policy.retries.count_from,
        "on": list(policy.on) if policy.on is not None else None,
        "backoff": policy.backoff,
        "delay": policy.delay,
        "failure_handler": policy.failure_handler,
        "path": policy.anchor.path,
        "line": policy.anchor.line,
    }


def _delivery(project: Project, site: JobSite) -> dict:
    """At least once or at most once, by the framework's default or the setting that decides it."""
    found = delivery_of(project, site)
    return {"guarantee": found.guarantee, "because": found.because}


def _render(value) -> str:
    from ..analysis.values import render

    if isinstance(value, list) and value and value[0] == "lit" and isinstance(value[1], str):
        return value[1]
    return render(value) if isinstance(value, list) else str(value)


def to_json(items: list[dict], files: int, unanalysed: list[dict], failures=()) -> str:
    errors = [{"where": f.where, "error": f.error} for f in failures]
    return json.dumps({"version": VERSION, "files": files, "jobs": items, "unanalysed": unanalysed, "errors": errors},
                      indent=2)


# ---- text --------------------------------------------------------------------------------------

def _retry_text(retry: dict | None) -> str:
    if retry is None:
        return "none"
    parts = [retry["setting"]]
    facts = []
    if retry["max_retries"] == 0:
        facts.append("no retries")
    elif not retry["live"] and retry["from_default"]:
        facts.append("unused: nothing in the job asks for a retry")
    elif not retry["live"]:
        facts.append("dead configuration: nothing triggers a retry")
    else:
        if retry["bounded"]:
            limit = retry["max_retries"]
            facts.append(f"bounded by {retry['count_from']}" if limit is None else f"up to {limit}")
        else:
            facts.append("no limit")
        if retry["on"] == []:
            facts.append("only where the body asks")
        elif retry["on"]:
            facts.append("on " + ", ".join(n.rpartition(".")[2] for n in retry["on"]))
        if retry["backoff"]:
            facts.append(f"{retry['backoff']} backoff" if retry["backoff"] != "none" else "no delay")
        facts.append(f"exhaustion seen by {retry['failure_handler']}" if retry["failure_handler"] else "no failure handler")
    if retry["from_default"]:
        facts.append("framework default")
    if retry["source"] == "decorator":
        facts.append("retry decorator")
    return f"{parts[0]} ({'; '.join(facts)})"


def _overlap_text(overlap: dict) -> str:
    parts = [f"lock {name}" for name in overlap["locks"]]
    parts += [f"{k}={v}" for k, v in overlap["settings"].items()]
    return ", ".join(parts) if parts else "no lock or overlap setting seen"


def _lines(items: list[dict]):
    from ..analysis.names import short

    for row in items:
        triggers = ", ".join(row["triggers"]) or "-"
        yield [(f"{row['path']}:{row['line']}:{row['column']}:", "path"), (" ", ""), (row["job"], "job"),
               (f"  [{row['framework']} {row['kind']}; {triggers}]", "dim")]
        yield [("    retry:   ", "dim"), (_retry_text(row["retry"]), "retry" if row["retry"] and row["retry"]["live"] else "")]
        yield [("    delivery: ", "dim"), (f"{row['delivery']['guarantee']} ({row['delivery']['because']})", "")]
        if row["settings"]:
            yield [("    set:     ", "dim"), (", ".join(f"{k}={v}" for k, v in row["settings"].items()), "")]
        for effect in row["effects"]:
            yield [("    effect:  ", "dim"), (f"{effect['kind']}: ", "effect"), (" -> ".join(short(c) for c in effect["chain"]), "")]
        for effect in row["guarded_effects"]:
            yield [("    guarded: ", "dim"), (f"{effect['kind']}: {short(effect['call'])} in {short(effect['function'])}", "")]
        yield [("    overlap: ", "dim"), (_overlap_text(row["overlap"]), "")]
        yield []
    jobs = [r for r in items if r["kind"] not in ("retried", "background", "dispatched", "step")]
    started = sum(1 for r in items if r["kind"] == "background")
    dispatched = sum(1 for r in items if r["kind"] == "dispatched")
    steps = sum(1 for r in items if r["kind"] == "step")
    by_framework: dict[str, int] = {}
    for row in jobs:
        by_framework[row["framework"]] = by_framework.get(row["framework"], 0) + 1
    retried = sum(1 for r in jobs if r["retry"] and r["retry"]["live"])
    effectful = sum(1 for r in jobs if r["effects"])
    per = ", ".join(f"{k} {v}" for k, v in sorted(by_framework.items()))
    by_source = collections.Counter(r["retry"]["source"] for r in items if r["kind"] == "retried" and r["retry"])
    looping, recursing, again, requeued = (by_source[s] for s in ("loop", "recursion", "once", "requeue"))
    functions = len(items) - len(jobs) - started - dispatched - steps - looping - recursing - again - requeued
    also = f"; {functions} function{'s' if functions != 1 else ''} under a retry decorator" if functions else ""
    also += f"; {looping} with a retry loop of {'their' if looping != 1 else 'its'} own" if looping else ""
    also += f"; {recursing} calling {'themselves' if recursing != 1 else 'itself'} again on a failure" if recursing else ""
    also += f"; {again} called again once on a failure" if again else ""
    also += f"; {requeued} queued again on a failure" if requeued else ""
    also += f"; {started} started once in the background" if started else ""
    also += f"; {dispatched} handed {'their' if dispatched != 1 else 'its'} work by a job" if dispatched else ""
    also += f"; {steps} run in every round of a job's loop" if steps else ""
    yield [(f"{len(jobs)} job{'s' if len(jobs) != 1 else ''}", "total"), (f" ({per})" if per else "", ""),
           (f"; {retried} retried; {effectful} with unguarded external effects{also}.", "")]


_STYLES = {"path": "bold", "job": "bold cyan", "dim": "dim", "retry": "yellow", "effect": "red", "total": "bold"}


def render_text(items: list[dict], stream: IO[str], color: bool = False) -> None:
    if not color:
        for segments in _lines(items):
            stream.write("".join(text for text, _ in segments) + "\n")
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, force_terminal=True, soft_wrap=True, highlight=False)
    for segments in _lines(items):
        line = Text()
        for text, style in segments:
            line.append(text, style=_STYLES.get(style, ""))
        console.print(line)


def unanalysed(summaries) -> list[dict]:
    return [{"path": s.path, "line": s.error_line, "message": s.error} for s in summaries if s.error is not None]
