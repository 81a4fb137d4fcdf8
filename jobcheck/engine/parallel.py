"""Summarising many files at once: in this process for small inputs, across processes otherwise.

Workers get the file's bytes (never re-read the file, so a summary always matches the content
it is stored under), summarise them exactly as `source.summarize_bytes` does in this process,
write the cache entry themselves when asked, and send back the summary packed (`serialize`):
rebuilding slotted dataclasses from pickles is slow, from marshalled tuples it is not. A summary
depends only on the bytes, the module name and whether the file is a package, so results are
identical whichever process made them and in whatever order they arrive.
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..analysis import source
from ..analysis.serialize import FormatError, pack, unpack
from ..analysis.summary import ModuleSummary

# Below this much source, starting workers (tens of milliseconds each) costs more than it saves:
# one core summarises a few megabytes a second.
POOL_MIN_BYTES = 256 * 1024
POOL_MIN_FILES = 4

Progress = Callable[[int, int], None]  # (done, total)


@dataclass(slots=True)
class Task:
    """One file to summarise: its bytes, how it is named, and where to store the result."""

    index: int
    data: bytes
    display: str
    module: str
    is_package: bool
    entry: str | None = None  # the cache entry to write, if caching
    key: bytes = b""


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@contextmanager
def gc_paused(freeze: bool = False):
    """Summaries are millions of small acyclic objects: the cycle collector's passes over them
    cost more than a third of the run and free nothing, so it sleeps while they are built.
    With `freeze`, what was built is moved out of the collector's sight for good (`gc.freeze`):
    otherwise its first pass afterwards scans all of it (half a second on a large project). For
    one-shot processes like the command line; objects frozen are still freed by reference
    counting, only cycles among them would never be."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


def summarize_task(task: Task) -> bytes:
    """Summarise one file; the summary packed (and stored, when `task.entry` is set)."""
    summary = source.summarize_bytes(task.data, task.display, task.module, task.is_package)
    blob = pack(summary)
    if task.entry is not None:
        from ..cache.store import write_entry

        write_entry(Path(task.entry), task.key, blob)
    return blob


def _summarize_indexed(task: Task) -> tuple[int, bytes]:
    return task.index, summarize_task(task)


def _worker_init() -> None:
    gc.disable()  # see gc_paused; a worker lives only for this run


class Workers:
    """A process pool started on first use and reused by every later batch of the run (the
    modules imported by the checked files come in several batches), until `close`."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool = None

    @property
    def running(self) -> bool:
        return self._pool is not None

    def map(self, tasks: list[Task]):
        """(index, packed summary) for each task, as they complete."""
        if self._pool is None:
            import multiprocessing
            import threading

            # fork starts a worker in milliseconds with jobcheck already imported; it is safe
            # in a single-threaded process (the command line). Otherwise start clean ones.
            method = "fork" if sys.platform == "linux" and threading.active_count() == 1 else "spawn"
            self._pool = multiprocessing.get_context(method).Pool(self.processes, initializer=_worker_init)
        # Largest first, so no worker is left with one big file at the end; small files go in
        # chunks, so a run of tiny modules does not cost a round trip each.
        ordered = sorted(tasks, key=lambda t: len(t.data), reverse=True)
        chunk = max(1, min(16, len(ordered) // (self.processes * 8)))
        return self._pool.imap_unordered(_summarize_indexed, ordered, chunksize=chunk)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def terminate(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def summarize_tasks(tasks: list[Task], workers: Workers | None,
                    progress: Progress | None = None) -> dict[int, ModuleSummary]:
    """index -> summary for each task: in `workers` when given, else in this process (packed and
    unpacked when caching: what is stored is exactly what the run used)."""
    total = len(tasks)
    out: dict[int, ModuleSummary] = {}
    with gc_paused():
        if workers is None:
            for done, task in enumerate(tasks, 1):
                if task.entry is None:
                    out[task.index] = source.summarize_bytes(task.data, task.display, task.module, task.is_package)
                else:
                    out[task.index] = unpack(summarize_task(task))
                if progress:
                    progress(done, total)
            return out
        # Results stay packed until the workers have exited: a summary takes several times its
        # packed size, and the peak would otherwise be every summary plus every worker.
        blobs: list[tuple[int, bytes]] = []
        for done, result in enumerate(workers.map(tasks), 1):
            blobs.append(result)
            if progress:
                progress(done, total)
        workers.close()  # a later batch (context modules) starts a pool again if it is worth one
        blobs.reverse()
        trim_every = max(64, len(blobs) // 8)
        while blobs:
            index, blob = blobs.pop()
            out[index] = unpack(blob)
            if len(blobs) % trim_every == 0:
                # The packed results sit on the C heap, the summaries in Python's own arenas:
                # hand back what the unpacked ones took as we go, or the peak is both.
                _return_freed_memory()
    return out


def _return_freed_memory() -> None:
    """Give the C heap's free pages back to the system (glibc keeps the received packed results'
    space otherwise, though the summaries live in Python's own arenas). Best effort."""
    if sys.platform != "linux":
        return
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


@dataclass(slots=True)
class Source:
    """A planned file, read: its bytes (until summarised) and its cache key, or why it failed."""

    path: Path
    display: str
    module: str
    is_package: bool
    data: bytes | None
    key: bytes | None  # None without a cache, or when the file cannot be read


class SummaryPool:
    """The summariser `api.check_paths(..., summarizer=...)` takes: reads every file once, takes
    what the cache holds, and summarises the rest (in processes when there is enough of it).
    Close it (or use it as a context manager) to stop the worker processes:

        with SummaryPool(Cache(folder), workers=2) as summarizer:
            report = api.check_paths(paths, config, summarizer=summarizer)
    """

    def __init__(self, cache=None, workers: int | None = None, progress: Progress | None = None,
                 pool_min_files: int = POOL_MIN_FILES, pool_min_bytes: int = POOL_MIN_BYTES) -> None:
        self.cache = cache
        self.processes = workers or default_workers()
        self.progress = progress
        self.pool_min_files, self.pool_min_bytes = pool_min_files, pool_min_bytes
        self.workers = Workers(self.processes) if self.processes > 1 else None
        self.used_pool = False
        # (display, path, key, module) of every file read, for the run record
        self.inputs: list[tuple[str, str, bytes | None, str]] = []
        self.read_paths: list[str] = []
        self.sealed_inputs: bytes | None = None  # the inputs, marshalled (see `close`)

    def __enter__(self) -> SummaryPool:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if self.workers is not None:
            (self.workers.close if kind is None else self.workers.terminate)()

    def close(self) -> None:
        """Every file is summarised: stop the workers, and pack what was read for the run record
        (`sealed_inputs`, `read_paths`)."""
        if self.workers is not None:
            self.workers.close()
        if self.inputs and self.cache is not None:
            self.read_paths = [path for _, path, _, _ in self.inputs]
            if all(key is not None for _, _, key, _ in self.inputs):
                self.sealed_inputs = marshal.dumps(tuple(self.inputs))
            self.inputs = []

    def __call__(self, planned: list[tuple[Path, str, str, bool]]) -> list[ModuleSummary]:
        return self.summarize(self.read(planned))

    def read(self, planned: list[tuple[Path, str, str, bool]]) -> list[Source]:
        out = []
        for path, display, module, is_package in planned:
            try:
                data = source.read_source(path)
            except OSError:
                out.append(Source(path, display, module, is_package, None, None))
                continue
            key = self.cache.summary_key(_content(data), module, is_package) if self.cache is not None else None
            out.append(Source(path, display, module, is_package, data, key))
        return out

    def summarize(self, sources: list[Source]) -> list[ModuleSummary]:
        from ..analysis.source import summarize_one

        results: list[ModuleSummary | None] = [None] * len(sources)
        tasks = []
        with gc_paused():
            for i, src in enumerate(sources):
                if src.data is None:  # unreadable: summarize_one says why, as a sequential run does
                    results[i] = summarize_one((src.path, src.display, src.module, src.is_package))
                    continue
                if src.key is not None:
                    blob = self.cache.load_packed(src.key)
                    summary = _unpack_or_none(blob)
                    if summary is not None:
                        summary.path = src.display  # the key leaves out how the file was named
                        results[i] = summary
                        src.data = None  # a project's sources add up: hold none longer than needed
                        continue
                entry = self.cache.summary_entry(src.key) if src.key is not None else None
                tasks.append(Task(i, src.data, src.display, src.module, src.is_package, entry, src.key or b""))
                src.data = None  # the task holds the bytes until it is done
        workers = self.workers if self._worth_workers(tasks) else None
        self.used_pool |= workers is not None
        for i, summary in summarize_tasks(tasks, workers, self.progress).items():
            results[i] = summary
        self.inputs.extend((s.display, str(s.path), s.key, s.module) for s in sources)
        return results  # type: ignore[return-value]

    def _worth_workers(self, tasks: list[Task]) -> bool:
        if self.workers is None or len(tasks) < 2:
            return False
        if self.workers.running:  # already started: any batch shares the work
            return True
        return len(tasks) >= self.pool_min_files and sum(len(t.data) for t in tasks) >= self.pool_min_bytes


def _unpack_or_none(blob: bytes | None) -> ModuleSummary | None:
    if blob is None:
        return None
    try:
        return unpack(blob)
    except FormatError:
        return None  # written by something else: summarise again, and the entry is rewritten


def _content(data: bytes) -> bytes:
    from ..cache.store import digest

    return digest(data)
