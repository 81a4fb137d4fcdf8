"""What the language server analyses, and the caches that keep it fast.

A document belongs to a project: the folder of the `pyproject.toml` that configures jobcheck (found
as the CLI finds it, upwards from the document), else the editor's workspace folder around it,
else the document's own folder. Every Python file of that project takes part — cross-module
effects need the helpers — read from disk, except the documents open in the editor, whose unsaved
text is used instead. Summaries are cached: files on disk by (mtime, size), open documents by their
text, so a keystroke re-summarises one file and re-runs only the (cheap) project phase. Files on
disk that need summarising in numbers (the first analysis, a branch switched) go through the
CLI's on-disk cache and process pool.

The server calls `analyse` from one worker thread at a time; `forget_files` and `knows` may be
called from another thread (the list of discovered files is behind a lock).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from ... import config as config_mod
from ...analysis import files, source
from ...analysis.summary import ModuleSummary
from ...engine import pipeline


@dataclass
class Result:
    config: config_mod.Config
    root: Path
    report: pipeline.Report
    texts: dict[Path, str]  # the editor text each open document was analysed with
    versions: dict[Path, int | None]

    def findings_for(self, path: Path) -> list:
        key = str(path)
        return [f for f in self.report.findings if f.path == key]


class Workspace:
    def __init__(self, folders: list[Path] | None = None) -> None:
        self.folders = [_real(f) for f in folders or []]
        self._disk: dict[Path, tuple[tuple, str, ModuleSummary]] = {}  # path -> (stat, module, summary)
        self._open: dict[Path, tuple[str, str, ModuleSummary]] = {}  # path -> (text, module, summary)
        self._found: dict[tuple, list[tuple[Path, str]]] = {}  # (root, excludes) -> discovered files
        self._found_lock = threading.Lock()

    def forget_files(self) -> None:
        """Files were created, deleted or renamed: discover again on the next analysis."""
        with self._found_lock:
            self._found.clear()

    def knows(self, path: Path) -> bool:
        """Was `path` among the files last discovered?"""
        with self._found_lock:
            return any(p == path for found in self._found.values() for p, _ in found)

    def root_of(self, path: Path, config: config_mod.Config) -> Path:
        if config.path is not None:
            return config.root
        around = [f for f in self.folders if _within(path, f)]
        return max(around, key=lambda f: len(f.parts)) if around else path.parent

    def analyse(self, path: Path, open_docs: dict[Path, tuple[str, int | None]]) -> Result:
        """Analyse the project of `path`; `open_docs` is the editor's text (and version) of every
        open document. Raises config.ConfigError for an unusable configuration, as the CLI does."""
        from ...engine.parallel import gc_paused

        # The cycle collector would scan every summary held here, again and again, while the
        # project phase allocates (a second on a large project, every other keystroke); it runs
        # between analyses instead.
        with gc_paused():
            return self._analyse(_real(path), open_docs)

    def _analyse(self, path: Path, open_docs: dict[Path, tuple[str, int | None]]) -> Result:
        cfg = config_mod.load(start=path.parent)  # not the file: resolving a symlink loop raises
        root = self.root_of(path, cfg)
        found = {p: d for p, d in self._discover(root, cfg)}
        for doc in open_docs:
            if doc.suffix == ".py" and (_within(doc, root) or doc == path):
                found.setdefault(doc, str(doc))  # open documents count even if new or excluded
        summaries = []
        texts, versions = {}, {}
        planned = pipeline.plan_modules(sorted(found.items(), key=lambda item: item[1]))
        self._refresh_disk([job for job in planned if job[0] not in open_docs], cfg, root)
        for p, display, module, is_pkg in planned:
            if p in open_docs:
                text, version = open_docs[p]
                summaries.append(self._summary_of_text(p, display, module, is_pkg, text))
                texts[p], versions[p] = text, version
            elif p in self._disk:
                summaries.append(self._disk[p][2])
        self._drop_closed(open_docs)
        # Findings only for the open documents (they are all the editor shows), with columns
        # counted in their unsaved text.
        report = pipeline.analyse(summaries, cfg, pipeline.Selection(), {str(p): p for p in found},
                             sources={str(p): t for p, t in texts.items()}, report_paths={str(p) for p in texts},
                             roots=[root])
        return Result(cfg, root, report, texts, versions)

    def _discover(self, root: Path, cfg: config_mod.Config) -> list[tuple[Path, str]]:
        excludes = tuple(cfg.exclude + cfg.extend_exclude)
        key = (root, excludes, cfg.respect_gitignore, cfg.max_file_size)
        with self._found_lock:
            found = self._found.get(key)
        if found is None:
            found = files.discover([str(root)], cfg.root, list(excludes), respect_gitignore=cfg.respect_gitignore,
                                   max_file_size=cfg.max_file_size)
            with self._found_lock:
                self._found[key] = found
        return found

    def _summary_of_text(self, path: Path, display: str, module: str, is_pkg: bool, text: str) -> ModuleSummary:
        cached = self._open.get(path)
        if cached is not None and cached[0] == text and cached[1] == module:
            return cached[2]
        summary = source.summarize_source(text, display, module, is_pkg)
        self._open[path] = (text, module, summary)
        return summary

    def _refresh_disk(self, planned: list[tuple[Path, str, str, bool]], cfg: config_mod.Config, root: Path) -> None:
        """Summaries of the files on disk, current: a file unchanged since it was summarised (same
        time, size and module name) keeps its summary; the others are summarised through the
        CLI's cache and process pool, so a restarted server reads them back and a large project
        (opened, a branch switched) is summarised on every core. The cache lives where `jobcheck
        check` keeps it ($JOBCHECK_CACHE_DIR, else beside the configuration file), else in the
        project's root folder. A file gone since discovery is forgotten."""
        stale = []
        for job in planned:
            path, module = job[0], job[2]
            try:
                st = os.stat(path)
            except OSError:
                self.forget_files()  # deleted since discovery
                self._disk.pop(path, None)
                continue
            signature = (st.st_mtime_ns, st.st_size)  # taken before reading: a later write is seen
            cached = self._disk.get(path)
            if cached is None or cached[:2] != (signature, module):
                stale.append((job, signature))
        if not stale:
            return
        from ...cache.store import ENV_VAR, FOLDER_NAME, Cache, default_dir
        from ...engine.parallel import SummaryPool

        folder = default_dir(cfg.path) if cfg.path is not None or os.environ.get(ENV_VAR) else root / FOLDER_NAME
        with SummaryPool(Cache(folder)) as summarizer:
            summaries = summarizer([job for job, _ in stale])
        for (job, signature), summary in zip(stale, summaries):
            self._disk[job[0]] = (signature, job[2], summary)

    def _drop_closed(self, open_docs: dict) -> None:
        for p in [p for p in self._open if p not in open_docs]:
            del self._open[p]


def _real(path: Path) -> Path:
    """The path with symlinks resolved; a symlink loop stays as it is (Path.resolve() raises on
    one before Python 3.13, and an editor can open one)."""
    return Path(os.path.realpath(path))


def _within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False
