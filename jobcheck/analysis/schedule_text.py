"""Crontab lines written outside the code: in a `crontab` file, a `cron.d` entry, a shell script
or the deployment documentation, where an application says which of its commands run on a
schedule:

    */5 * * * * cd /srv/app && python manage.py get_email
    0 3 * * *   ckan -c /etc/ckan/ckan.ini notify send_emails
    @daily      /srv/app/venv/bin/python scripts/nightly.py

Only lines in crontab syntax count (five time fields, or `@hourly` ... `@annually`), wherever
they are in the file (a documentation code block indents them); prose that mentions a command is
not a schedule, nor is `@reboot`. What each command runs is decided by the frameworks
(`frameworks/scheduled_commands.py`); this module only finds and splits the lines.

Which files are read is decided by name alone (`is_schedule_file`), so that listing a folder
tells whether one was added or removed (the cache's folder stamps look at the same names).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from .source import read_source

# Documentation, shell scripts, and anything whose name says cron (`crontab`, `app.cron`,
# `cron.d/app`, `cron.conf.in`).
_TEXT_SUFFIXES = (".rst", ".md", ".txt", ".sh")
MAX_TEXT_SIZE = 512 * 1024  # a larger text is data, not a deployment note

_FIELD = r"[\d*][\d*/,\-]*|[A-Za-z]{3}(?:[,\-][A-Za-z]{3})*"
_CRON = re.compile(rf"^\s*(?:[-*>$#|]\s*)*(?:(?:{_FIELD})\s+){{4}}(?:{_FIELD})\s+(?P<command>\S.*)$")
_NICKNAME = re.compile(r"^\s*(?:[-*>$#|]\s*)*@(?:hourly|daily|midnight|weekly|monthly|yearly|annually)\s+(?P<command>\S.*)$")
_NUMBERS = re.compile(r"[\d*]")


@dataclass(frozen=True)
class CronLine:
    path: str  # as displayed
    line: int
    command: str

    @property
    def words(self) -> list[str]:
        """The command's words, each command of `a && b; c` in turn, with the environment
        assignments and redirections left out."""
        try:
            words = shlex.split(self.command, comments=True)
        except ValueError:  # an unbalanced quote: words as written
            words = self.command.split()
        out = []
        for word in words:
            for part in re.split(r"(&&|\|\||;|\|)", word):
                if part and not re.match(r"^(\w+=|[0-9]*[<>])", part):
                    out.append(part)
        return out


def is_schedule_file(name: str) -> bool:
    lowered = name.lower()
    return "cron" in lowered or lowered.endswith(_TEXT_SUFFIXES)


def cron_lines(text: str, path: str) -> list[CronLine]:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if "*" not in line and "@" not in line and not _NUMBERS.search(line):
            continue
        found = _CRON.match(line)
        if found is not None and not _NUMBERS.search(line[: found.start("command")]):
            found = None  # five words of prose ("the cat sat on mat"), not time fields
        found = found or _NICKNAME.match(line)
        if found is not None:
            out.append(CronLine(path, number, found.group("command").strip().rstrip("`")))
    return out


def read_cron_lines(files: list[tuple[Path, str]]) -> list[CronLine]:
    """The crontab lines of these files (absolute path, display path); a file that cannot be read,
    is too large or is not text gives none."""
    out: list[CronLine] = []
    for path, display in files:
        try:
            data = read_source(path)
        except OSError:
            continue
        if len(data) > MAX_TEXT_SIZE or b"\0" in data[:4096]:
            continue
        out.extend(cron_lines(data.decode("utf-8", errors="replace"), display))
    return out
