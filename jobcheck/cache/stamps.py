"""When a run may skip reading files: the stamps of what it read.

A run record keeps the modification time, size and status-change time of every file the run read
(`chmod 000` changes only the last: an unreadable file must be reported again) and, for every
folder it listed (finding files, resolving imports), its modification time and a digest of its
entries. When all are unchanged, nothing the run read can differ — a file added, removed or
renamed changes its folder's entries — and its findings are read back without reading a file,
as ruff and mypy do. A folder whose time changed but whose entries did not (an editor that saves
through a temporary file or keeps a swap file beside the module, a `git checkout`) still holds.
Any other difference computes the run again, from the summaries cached by content. Stamps taken
within RACY_NS of the run's start are not trusted (a file written twice within the clock's
resolution keeps its time, git's "racy clean" problem): such a run computes again next time.
"""

from __future__ import annotations

import os

from ..analysis.schedule_text import is_schedule_file
from .store import digest

RACY_NS = 2_000_000_000


def take_stamps(files: list[str], folders, started_ns: int, probed: dict | None = None) -> tuple:
    """((path, mtime_ns, size, ctime_ns) for files, (folder, mtime_ns, entries digest) for folders,
    complete, (path, was there) for the files looked for by name). A file or folder missing, or
    changed too close to the run's start to be told apart from a later change, is left out, and
    the stamps are then not complete: they cannot vouch for the run (`stamps_hold`), which is then
    computed again next time. A file looked for is stamped by whether the run found it there, not
    by its folder's entries (a project's parent folder changes with its siblings): presence has
    no clock, so what the run saw is compared with what is there next time."""
    out_files: list = []
    out_folders: list = []
    complete = True
    for paths, out, is_file in ((files, out_files, True), (sorted(folders), out_folders, False)):
        for path in paths:
            try:
                st = os.stat(path)
                if st.st_mtime_ns >= started_ns - RACY_NS:
                    complete = False
                    continue
                if is_file:
                    out.append((path, st.st_mtime_ns, st.st_size, st.st_ctime_ns))
                else:
                    out.append((path, st.st_mtime_ns, _entries_digest(path)))
            except OSError:
                complete = False
    probes = tuple(sorted((probed or {}).items()))
    return tuple(out_files), tuple(out_folders), complete, probes


# Files whose presence changes what a run lists: git's ignore files (`.git/info/exclude` too).
_LISTING_FILES = (".gitignore", "exclude")


def _entries_digest(folder: str) -> bytes:
    """What a folder holds that a run can see: its folders, its files named `*.py` or with no
    extension (a script), its ignore files and the files that may hold crontab lines (finding
    files and resolving imports look at
    nothing else: an editor's swap or backup file beside a module changes nothing). Taken after a run, from a folder last changed before
    it: what the run listed."""
    with os.scandir(folder) as it:
        entries = sorted(f"{e.name}/" if e.is_dir() else e.name for e in it
                         if e.name.endswith(".py") or "." not in e.name or e.name in _LISTING_FILES
                         or is_schedule_file(e.name, folder) or e.is_dir())
    return digest("\0".join(entries).encode("utf-8", "surrogateescape"))


def folder_holds(folder: str, mtime_ns: int, entries: bytes) -> bool:
    """Does the folder still hold what it held? Its time, else (it changed) its entries."""
    try:
        return os.stat(folder).st_mtime_ns == mtime_ns or _entries_digest(folder) == entries
    except OSError:
        return False


def stamps_hold(stamps: tuple) -> bool:
    """Does every file a run read still have the time and size recorded, every folder it listed
    the same entries, and every file it looked for by name the same presence?"""
    try:
        files, folders, complete, probes = stamps
        if complete is not True:
            return False
        for path, mtime_ns, size, ctime_ns in files:
            st = os.stat(path)
            if st.st_mtime_ns != mtime_ns or st.st_size != size or st.st_ctime_ns != ctime_ns:
                return False
        if not all(folder_holds(*folder) for folder in folders):
            return False
        return all(os.path.isfile(path) == was_there for path, was_there in probes)
    except (OSError, ValueError, TypeError):
        return False
