"""A run with the cache, as ruff does it: the recorded findings when nothing the run read has
changed, else every file's summary (read back from the cache where its content is unchanged,
computed otherwise) linked afresh and checked.

Nothing below the per-file summaries is reused across runs, so no framework or rule has to say
what it looked at: the project phase sees exactly what a run without a cache sees. A cache that
fails in any way (unreadable, corrupt, unwritable, a bug of ours) costs time, never a result:
the run is computed afresh without it.
"""

from __future__ import annotations

import os
import time

from ..cache.stamps import stamps_hold, take_stamps
from ..cache.store import Cache, digest


def check_paths(paths: list[str], config, selection=None, *, force_exclude: bool = False, cache: Cache | None = None,
                workers: int | None = None, progress=None, reuse_findings: bool = True, freeze: bool = False):
    """`pipeline.check_paths` with the cache and the process pool, for the command line.

    When the stamps of every file and folder this invocation's last run read still hold, its
    findings are read back whole (the Report then has no `project`: callers that need it — fixes,
    the job inventory — pass `reuse_findings=False`). Otherwise unchanged files' summaries are
    read back, changed files are summarised, and the project is linked and checked. `freeze`
    (for one-shot processes) hides what the run built from the cycle collector afterwards (see
    `parallel.gc_paused`)."""
    from .parallel import gc_paused

    with gc_paused(freeze=freeze):  # the project phase too builds many objects and no cycles
        return _check_paths(paths, config, selection, force_exclude, cache, workers, progress, reuse_findings)


def _check_paths(paths, config, selection, force_exclude, cache, workers, progress, reuse_findings):
    from . import pipeline
    from .parallel import SummaryPool

    selection = selection or pipeline.Selection()
    invocation = None
    started = time.time_ns()
    if cache is not None:
        cache.touch()
        # One record per invocation (overwritten by its next run): what was asked, and how.
        invocation = digest(repr((cache.salt, sorted(vars(config).items()), selection, list(paths), force_exclude,
                                  os.getcwd())).encode())
        if reuse_findings:
            try:
                record = cache.load_run(invocation)
                findings = record.findings() if record is not None and stamps_hold(record.stamps) else None
            except Exception:
                findings = None
            if findings is not None:
                return pipeline.Report(findings=findings, files=record.checked, project=None, reused=True)
    folders: set[str] = set()
    listed_by: list[str] = []
    probed: dict[str, bool] = {}
    try:
        with SummaryPool(cache, workers, progress) as summarizer:
            report = pipeline.check_paths(paths, config, selection, summarizer=summarizer, force_exclude=force_exclude,
                                          folders=folders, listed_by=listed_by, probed=probed)
    except Exception:
        if cache is None:
            raise
        # The pipeline reports its own failures as findings: what escaped it came from the cache
        # or the process pool. Compute afresh without either (an error of the analysis itself
        # raises again here, and is the caller's to report).
        with SummaryPool(None, 1, progress) as summarizer:
            return pipeline.check_paths(paths, config, selection, summarizer=summarizer, force_exclude=force_exclude)
    if invocation is not None:
        try:
            summarizer.close()  # seals the inputs, if pipeline.check_paths has not already
            if summarizer.sealed_inputs is not None:  # else a file could not be read: nothing to record
                stamps = take_stamps(summarizer.read_paths + listed_by, folders, started, probed)
                cache.store_run(invocation, summarizer.sealed_inputs, report.findings, report.files, stamps)
        except Exception:
            pass  # not recorded: the next run computes again
    return report
