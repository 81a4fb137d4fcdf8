"""A project of hostile inputs, generated (no binaries are committed): special files, symlinks
leading out of the project, names that are not UTF-8, files too large, unreadable folders, files
that do not decode or parse, git-ignored code, and beside them real jobs that must still be
checked. `tests/test_hostile_input.py` runs jobcheck on it in CI.

    python -m tests.hostile_corpus /tmp/corpus      # build it, to try jobcheck on by hand
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

# Written outside the project; a symlink inside points at it. It must never be printed.
SECRET = "HOSTILE-CORPUS-SECRET-7f3a"

RETRIED_EMAIL = '''from celery import shared_task
import smtplib


@shared_task(autoretry_for=(Exception,), max_retries=3)
def {name}(address):
    smtplib.SMTP("mail").sendmail("jobs@example.com", [address], "hello")
'''

# A limit small enough that the data module below is refused (the default is megabytes).
MAX_FILE_SIZE = "64KB"


@dataclass
class Corpus:
    root: Path  # the project to check
    outside: Path  # a folder beside it, not checked
    # display path -> the finding codes it must get (the real jobs, and each hostile file's JC000)
    expected: dict[str, set[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # cases this machine could not make


def build(base: Path) -> Corpus:
    corpus = Corpus(base / "project", base / "outside")
    corpus.outside.mkdir(parents=True)
    (corpus.outside / "secret.py").write_text(f"{SECRET} = 1\n{SECRET}: not python\n", encoding="utf-8")
    root = corpus.root
    root.mkdir(parents=True)
    (root / ".git").mkdir()  # a repository: its .gitignore applies
    _write(root / "pyproject.toml", f'[tool.jobcheck]\nselect = ["JC201"]\nmax-file-size = "{MAX_FILE_SIZE}"\n')
    _write(root / ".gitignore", "generated/\n")

    # Real jobs, beside every hostile file: each must still be reported.
    for display in ("jobs/mail.py", "jobs/deep/nested.py", "generated_not/kept.py"):
        _write(root / display, RETRIED_EMAIL.format(name=Path(display).stem))
        corpus.expected[display] = {"JC201"}
    _write(root / "generated/client.py", RETRIED_EMAIL.format(name="ignored"))  # git-ignored: not checked

    # Special files and symlinks: refused unread.
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "jobs/x.py")
        corpus.expected["jobs/x.py"] = {"JC000"}
        # Texts read for schedules, consumers and Odoo's data records: nothing to report, nothing to wait for.
        for name in ("ir_cron.xml", "NOTES.md", "consumer.toml", "app.cron", "deploy.sh"):
            os.mkfifo(root / "jobs" / name)
    # Odoo data of 9,000 records and fields never closed, under the size read: one pass, no finding.
    _write(root / "data/ir_cron.xml", "ir.cron " + '<record model="ir.cron">' * 9000 + '<field name="code">model.x(' * 9000)
    for name, target in (("zero.py", "/dev/zero"), ("passwd.py", str(corpus.outside / "secret.py")),
                         ("etc_passwd.py", "/etc/passwd")):
        if os.path.exists(target):
            os.symlink(target, root / "jobs" / name)
            corpus.expected[f"jobs/{name}"] = {"JC000"}
    os.symlink("loop.py", root / "jobs/loop.py")
    os.symlink("missing_target.py", root / "jobs/dangling.py")
    corpus.expected.update({"jobs/loop.py": {"JC000"}, "jobs/dangling.py": {"JC000"}})

    # Files that do not decode, do not parse, or are too large.
    bad = {
        "bad/nul.py": b"x = 1\x00\n",
        "bad/latin_undeclared.py": b"NAME = 'caf\xe9'\n",
        "bad/unknown_codec.py": b"# coding: no-such-codec\nx = 1\n",
        "bad/syntax.py": b"def broken(:\n    pass\n",
        "bad/deep.py": b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n",
        "bad/data.py": b"ROWS = [" + b"1, " * 40_000 + b"]\n",
    }
    for display, data in bad.items():
        _write_bytes(root / display, data)
        corpus.expected[display] = {"JC000"}
    # Odd but valid: analysed like any file.
    _write_bytes(root / "odd/escaped.py", b"# coding: unicode_escape\nNAME = 'caf\\xe9'\n")
    _write_bytes(root / "odd/bom_crlf.py", b"\xef\xbb\xbfx = 1\r\ny = 2\r\n")
    _write(root / "odd/x.py/inner.py", "x = 1\n")  # a folder named like a module

    # Names that are not UTF-8 (where the file system takes them).
    try:
        os.mkdir(os.fsencode(root) + b"/d\xff")
        for name, job in ((b"/d\xff/m.py", "in_odd_folder"), (b"/x\xff.py", "odd_name")):
            with open(os.fsencode(root) + name, "w", encoding="utf-8") as fh:
                fh.write(RETRIED_EMAIL.format(name=job))
        corpus.expected.update({"d\udcff/m.py": {"JC201"}, "x\udcff.py": {"JC201"}})
    except (OSError, UnicodeError):
        corpus.notes.append("the file system does not take names that are not UTF-8")

    # A folder that cannot be listed: reported (only when not running as root, who lists it anyway).
    locked = root / "locked"
    _write(locked / "hidden.py", RETRIED_EMAIL.format(name="hidden"))
    os.chmod(locked, 0)
    if os.access(locked, os.R_OK):
        corpus.expected["locked/hidden.py"] = {"JC201"}
        corpus.notes.append("running as root: the locked folder is listed")
    else:
        corpus.expected["locked"] = {"JC000"}
    return corpus


def unlock(corpus: Corpus) -> None:
    """Give the locked folder its permissions back (so the corpus can be removed)."""
    os.chmod(corpus.root / "locked", 0o755)


def _write(path: Path, text: str) -> None:
    _write_bytes(path, text.encode("utf-8"))


def _write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


if __name__ == "__main__":
    built = build(Path(sys.argv[1]))
    print(f"corpus in {built.root}: {len(built.expected)} files with expected findings", *built.notes, sep="\n")
