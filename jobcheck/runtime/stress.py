"""Lease and fencing stress: many processes, many lease cycles, random pauses past the TTL.

Each worker process repeatedly acquires a lease on one of a few resources, sometimes sleeps
longer than the TTL (a "paused" runner whose lease others take over), then makes a fenced
write that increments a counter and appends its token to a log, and releases. Afterwards:

* the tokens issued for each resource are exactly 1..N (unique, nothing skipped or repeated),
  and each worker saw its own tokens strictly increase;
* the accepted writes in commit order carry strictly increasing tokens: no write was accepted
  after a newer token had written (zero stale writes accepted);
* the counter equals the number of accepted writes: nothing lost, nothing doubled.

Used by the test suite, ``benchmarks/runtime_stress.py`` and ``jobcheck lease stress``.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import random
import sqlite3
import time
import traceback
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from .backends import open_backend
from .errors import LeaseLostError, StaleTokenError
from .fencing import fenced_transaction, install_fencing
from .sqlite import retry_busy

__all__ = ["StressConfig", "StressResult", "run_stress", "format_table"]


@dataclass
class StressConfig:
    url: str  # lease backend; the fenced store is the same database / server
    processes: int = 8
    cycles: int = 200  # completed lease cycles per process
    resources: int = 4
    ttl: float = 0.1
    pause_probability: float = 0.03
    pause_factor: float = 1.6  # a pause lasts ttl * pause_factor
    seed: int = 0
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])  # keeps runs apart

    def resource_names(self) -> list[str]:
        return [f"stress-{self.run_id}-{i}" for i in range(self.resources)]


@dataclass
class StressResult:
    backend: str
    processes: int
    cycles: int  # completed lease cycles, all processes
    accepted: int  # fenced writes the store accepted
    rejected: int  # fenced writes the store rejected as stale
    paused: int  # cycles that slept past the TTL
    busy: int  # acquisition attempts that found the lease held
    renewed: int
    renew_lost: int
    max_token: int
    counter: int  # sum of the protected counters, read back from the store
    elapsed: float
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ------------------------------------------------------------------------------ stores


class _SQLiteStore:
    def __init__(self, path: str) -> None:
        # timeout=0 and retry_busy: poll for the write lock instead of SQLite's coarse sleeps.
        self.conn = sqlite3.connect(path, timeout=0, isolation_level=None)

    def setup(self, resources: list[str]) -> None:
        def create() -> None:
            self.conn.execute("PRAGMA journal_mode=WAL")
            install_fencing(self.conn)
            self.conn.execute("CREATE TABLE IF NOT EXISTS jobcheck_stress_counter (resource TEXT PRIMARY KEY, value INTEGER NOT NULL)")
            self.conn.execute("CREATE TABLE IF NOT EXISTS jobcheck_stress_log (id INTEGER PRIMARY KEY, resource TEXT, token INTEGER)")
            for r in resources:
                self.conn.execute("INSERT OR IGNORE INTO jobcheck_stress_counter VALUES (?, 0)", (r,))

        retry_busy(create, 60)

    def write(self, resource: str, token: int) -> None:
        def once() -> None:
            with fenced_transaction(self.conn, resource, token):  # BEGIN IMMEDIATE, fence, writes
                self.conn.execute("UPDATE jobcheck_stress_counter SET value = value + 1 WHERE resource = ?", (resource,))
                self.conn.execute("INSERT INTO jobcheck_stress_log (resource, token) VALUES (?, ?)", (resource, token))

        retry_busy(once, 60)  # StaleTokenError is not "locked": it propagates at once

    def read(self, resource: str) -> tuple[int, list[int]]:
        value = self.conn.execute("SELECT value FROM jobcheck_stress_counter WHERE resource = ?", (resource,)).fetchone()[0]
        log = [t for (t,) in self.conn.execute("SELECT token FROM jobcheck_stress_log WHERE resource = ? ORDER BY id", (resource,))]
        return value, log

    def close(self) -> None:
        self.conn.close()


class _PostgresStore:
    def __init__(self, dsn: str) -> None:
        from .postgres import connect

        self.conn = connect(dsn)

    def setup(self, resources: list[str]) -> None:
        install_fencing(self.conn)
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtext('jobcheck-stress-schema'))")
            self.conn.execute("CREATE TABLE IF NOT EXISTS jobcheck_stress_counter (resource text PRIMARY KEY, value bigint NOT NULL)")
            self.conn.execute("CREATE TABLE IF NOT EXISTS jobcheck_stress_log (id bigserial PRIMARY KEY, resource text, token bigint)")
            for r in resources:
                self.conn.execute("INSERT INTO jobcheck_stress_counter VALUES (%s, 0) ON CONFLICT DO NOTHING", (r,))

    def write(self, resource: str, token: int) -> None:
        # The fence row lock is held to commit, so log ids follow commit order per resource.
        with fenced_transaction(self.conn, resource, token):
            self.conn.execute("UPDATE jobcheck_stress_counter SET value = value + 1 WHERE resource = %s", (resource,))
            self.conn.execute("INSERT INTO jobcheck_stress_log (resource, token) VALUES (%s, %s)", (resource, token))

    def read(self, resource: str) -> tuple[int, list[int]]:
        value = self.conn.execute("SELECT value FROM jobcheck_stress_counter WHERE resource = %s", (resource,)).fetchone()[0]
        rows = self.conn.execute("SELECT token FROM jobcheck_stress_log WHERE resource = %s ORDER BY id", (resource,))
        return int(value), [int(t) for (t,) in rows]

    def close(self) -> None:
        self.conn.close()


class _RedisStore:
    def __init__(self, url: str) -> None:
        from .redis_backend import RedisLeases
        from .redis_fencing import RedisFence

        self.client = RedisLeases.client_from_url(url)
        self.fence = RedisFence(self.client)

    def setup(self, resources: list[str]) -> None:
        pass

    def write(self, resource: str, token: int) -> None:
        # Counter and log carry the resource's hash tag: one slot on a cluster.
        self.fence.write(
            resource,
            token,
            ("INCR", f"jobcheck-stress:{{{resource}}}:counter"),
            ("RPUSH", f"jobcheck-stress:{{{resource}}}:log", token),
        )

    def read(self, resource: str) -> tuple[int, list[int]]:
        value = self.client.get(f"jobcheck-stress:{{{resource}}}:counter")
        log = self.client.lrange(f"jobcheck-stress:{{{resource}}}:log", 0, -1)
        return int(value or 0), [int(t) for t in log]

    def close(self) -> None:
        self.client.close()


def _open_store(url: str) -> Any:
    backend = open_backend(url)
    try:
        if backend.kind == "sqlite":
            # The protected data lives in its own file beside the lease file, as an application's
            # database would: two files, two independent write locks.
            return _SQLiteStore(os.path.splitext(backend.path)[0] + "-data.db")  # type: ignore[attr-defined]
        if backend.kind == "postgres":
            return _PostgresStore(url)
        return _RedisStore(url)
    finally:
        backend.close()


# ------------------------------------------------------------------------------ worker


def _worker(cfg: StressConfig, index: int, barrier: Any, out: Any) -> None:
    try:
        out.put(_cycles(cfg, index, barrier))
    except BaseException:
        out.put({"worker": index, "error": traceback.format_exc()})


def _cycles(cfg: StressConfig, index: int, barrier: Any) -> dict[str, Any]:
    rng = random.Random(cfg.seed * 1000 + index)
    names = cfg.resource_names()
    leases = open_backend(cfg.url)
    store = _open_store(cfg.url)
    stats: dict[str, Any] = {
        "worker": index, "tokens": {r: [] for r in names}, "accepted": {r: 0 for r in names},
        "rejected": 0, "paused": 0, "busy": 0, "renewed": 0, "renew_lost": 0,
    }
    barrier.wait()
    done = 0
    while done < cfg.cycles:
        resource = names[rng.randrange(len(names))]
        lease = leases.acquire(resource, cfg.ttl)
        if lease is None:
            stats["busy"] += 1
            time.sleep(rng.uniform(0.001, 0.004))  # back off; spinning starves the holder
            continue
        stats["tokens"][resource].append(lease.token)
        if rng.random() < cfg.pause_probability:
            time.sleep(cfg.ttl * cfg.pause_factor)  # paused past the TTL: others may take over
            stats["paused"] += 1
        elif rng.random() < 0.1:
            try:
                lease = leases.renew(lease)
                stats["renewed"] += 1
            except LeaseLostError:
                stats["renew_lost"] += 1
        try:
            store.write(resource, lease.token)  # written whether or not the lease still holds
            stats["accepted"][resource] += 1
        except StaleTokenError:
            stats["rejected"] += 1
        leases.release(lease)
        done += 1
    store.close()
    leases.close()
    return stats


# ------------------------------------------------------------------------------ driver


def _strictly_increasing(values: list[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


def run_stress(cfg: StressConfig, *, timeout: float = 300.0) -> StressResult:
    """Run the stress in ``cfg.processes`` fresh (spawned) processes and verify the outcome."""
    names = cfg.resource_names()
    setup_store = _open_store(cfg.url)
    setup_store.setup(names)
    kind = open_backend(cfg.url).kind
    ctx = multiprocessing.get_context("spawn")  # no inherited state: real independent processes
    barrier = ctx.Barrier(cfg.processes + 1)
    out = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(cfg, i, barrier, out), daemon=True) for i in range(cfg.processes)]
    for p in procs:
        p.start()
    problems: list[str] = []
    results: list[dict[str, Any]] = []
    try:
        barrier.wait(timeout=60)  # start the clock once every process is connected
        started = time.perf_counter()
        deadline = time.monotonic() + timeout
        while len(results) < cfg.processes:
            try:
                results.append(out.get(timeout=max(0.1, deadline - time.monotonic())))
            except queue.Empty:
                problems.append(f"timed out after {timeout:.0f}s with {len(results)} of {cfg.processes} workers done")
                break
        elapsed = time.perf_counter() - started
    finally:
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
    for r in results:
        if "error" in r:
            problems.append(f"worker {r['worker']} failed:\n{r['error']}")
    good = [r for r in results if "error" not in r]

    counter_total = 0
    max_token = 0
    for name in names:
        issued = sorted(t for r in good for t in r["tokens"][name])
        max_token = max([max_token, *issued])
        if issued != list(range(1, len(issued) + 1)):
            problems.append(f"{name}: issued tokens are not exactly 1..{len(issued)} (duplicates or gaps)")
        for r in good:
            if not _strictly_increasing(r["tokens"][name]):
                problems.append(f"{name}: worker {r['worker']} saw its tokens go backwards")
        value, log = setup_store.read(name)
        counter_total += value
        accepted = sum(r["accepted"][name] for r in good)
        if not _strictly_increasing(log):
            problems.append(f"{name}: a stale write was accepted (log tokens not strictly increasing)")
        if value != accepted or len(log) != accepted:
            problems.append(f"{name}: counter {value}, log {len(log)}, accepted writes {accepted}: lost or doubled writes")
    setup_store.close()

    def total(key: str) -> int:
        return sum(r[key] for r in good)

    return StressResult(
        backend=kind,
        processes=cfg.processes,
        cycles=sum(sum(len(v) for v in r["tokens"].values()) for r in good),
        accepted=sum(sum(r["accepted"].values()) for r in good),
        rejected=total("rejected"),
        paused=total("paused"),
        busy=total("busy"),
        renewed=total("renewed"),
        renew_lost=total("renew_lost"),
        max_token=max_token,
        counter=counter_total,
        elapsed=elapsed,
        problems=problems,
    )


def format_table(results: list[StressResult]) -> str:
    """A plain-text table of stress figures."""
    head = ["backend", "procs", "cycles", "accepted", "stale rejected", "paused", "busy", "max token", "counter", "elapsed s", "ok"]
    rows = [
        [r.backend, r.processes, r.cycles, r.accepted, r.rejected, r.paused, r.busy, r.max_token, r.counter,
         f"{r.elapsed:.1f}", "yes" if r.ok else "NO"]
        for r in results
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(line, widths)) for line in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - convenience
    import sys

    print(format_table([run_stress(StressConfig(url)) for url in sys.argv[1:] or [f"sqlite:///{os.getcwd()}/stress.db"]]))
