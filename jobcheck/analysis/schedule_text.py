"""Crontab lines written outside the code: in a `crontab` file, a `cron.d` entry, a shell script
or the deployment documentation, where an application says which of its commands run on a
schedule:

    */5 * * * * cd /srv/app && python manage.py get_email
    0 3 * * *   ckan -c /etc/ckan/ckan.ini notify send_emails
    @daily      /srv/app/venv/bin/python scripts/nightly.py

Lines in crontab syntax count (five time fields, or `@hourly` ... `@annually`; not `@reboot`),
wherever they are in the file (a documentation code block indents them). So do the commands a
paragraph of the documentation about cron quotes, and those of the code block after it ("executed
with the ``ralph deploy`` command regularly by cron"; "Then run (or add a cron job)::"; "This can be
added to a crontab." followed by a paragraph that is one quoted command), or about a
scheduled task ("Set up a scheduled task to run audits automatically:"); not a paragraph that turns
them down ("by hand, instead of from cron"), nor a changelog's; and the words
of a clause that says cron runs something ("I'm running getmail from cron"), which schedule a
program of the application's named so (`CronLine.mention`) and nothing else. What each
command runs is decided by the frameworks (`frameworks/scheduled_commands.py`); this module only
finds and splits the lines.

A shell script of the project that a schedule runs (by its path, in command position) runs its
command lines on that schedule (`_scripts_run`). A systemd timer schedules the service of the same name (or its `Unit=`): that service's
`ExecStart=` lines are read as crontab lines. So is each container's command of a Kubernetes
`kind: CronJob` (`*.yaml`, `*.yml`), its `command` and `args` lists joined (`yaml_commands`), and
of a YAML block after a paragraph about cron ("You can run those commands in a cron job:"). A
Markdown section whose heading names cron ("## Run the worker (cron-friendly)", not "## Cron
expressions") schedules the commands of its code blocks. The console scripts a package declares
(`pyproject.toml` `[project.scripts]` or poetry's scripts, `setup.cfg` `console_scripts`, pbr's too,
an installed package's `*.dist-info/entry_points.txt`;
`setup.py`'s are read from its summary, `syspath.setup_console_scripts`) say what a command name in such a line runs (`borgmatic` ->
`borgmatic.commands.borgmatic:main`).

A message consumer's configuration (`*.toml`, and its `.example`) names the consumer it runs at its
top level (`callback = "fedbadges.consumer:FedoraBadgesConsumer"`, Fedora Messaging's):
`configured_callbacks`.

An Odoo addon's XML data declares its scheduled actions as `ir.cron` records, whose code calls a
method of the model the record names (`<field name="model_id" ref="model_sale_order"/>`,
`<field name="code">model._cron_cleanup()</field>`; Odoo 10's `model` and `function` fields), and
its queue_job functions and their failure hooks as `queue.job.function` records:
`scheduled_actions`.

Which files are read is decided by name alone (`is_schedule_file`), so that listing a folder
tells whether one was added or removed (the cache's folder stamps look at the same names).
"""

from __future__ import annotations

import bisect
import html
import itertools
import os
import re
import shlex
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .source import read_source

# Documentation, shell scripts, and anything whose name or folder says cron (`crontab`,
# `app.cron`, `cron.d/app`, `cron.conf.in`).
_TEXT_SUFFIXES = (".rst", ".md", ".txt", ".sh")
MAX_TEXT_SIZE = 512 * 1024  # a larger text is data, not a deployment note

_NUMERIC = r"[\d*][\d*/,\-]*"
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:[,\-][a-z]{3})*"
_DAYS = r"(?:mon|tue|wed|thu|fri|sat|sun)(?:[,\-][a-z]{3})*"
# A bullet or prompt before the line (`- `, `* `, `$ `, `# `, `> `) is followed by a space: the
# time fields that follow are numbers and stars, names only for the month and the weekday.
_LEAD = r"^\s*(?:[-*>$#|]\s+)*"
_CRON = re.compile(rf"{_LEAD}(?:{_NUMERIC}\s+){{3}}(?:{_NUMERIC}|{_MONTHS})\s+(?:{_NUMERIC}|{_DAYS})\s+(?P<command>\S.*)$",
                   re.IGNORECASE)
_NICKNAME = re.compile(rf"{_LEAD}@(?:hourly|daily|midnight|weekly|monthly|yearly|annually)\s+(?P<command>\S.*)$")
_NUMBERS = re.compile(r"[\d*]")
_ENV_OR_REDIRECT = re.compile(r"^(\w+=|[0-9]*[<>])")
MAX_LINE = 1000  # a longer line is data, and not worth a regular expression's time


@dataclass(frozen=True)
class CronLine:
    path: str  # as displayed
    line: int
    command: str
    # A word of prose in a clause that says cron runs something ("I'm running getmail from cron"):
    # it schedules a program of the application's named so, and nothing else.
    mention: bool = False

    @cached_property
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
                if part and not _ENV_OR_REDIRECT.match(part) or part.startswith("<") and ">" in part[1:]:
                    out.append(part)  # `<site_dir>/manage.py` is a placeholder, not a redirection
        return out


_PACKAGE_FILES = ("pyproject.toml", "setup.cfg")
# A built package's metadata, whose body is its README (a wheel's `*.dist-info/METADATA`, an sdist's
# `PKG-INFO`): read as documentation.
_PACKAGE_README = ("metadata", "pkg-info")
# A message consumer's configuration, and its example (`fedbadges.toml.example`): Fedora Messaging's
# names the consumer at its top level (`callback = "fedbadges.consumer:FedoraBadgesConsumer"`).
_CONFIG_SUFFIXES = (".toml", ".toml.example", ".toml.sample", ".toml.dist")
_CALLBACK = re.compile(r"""^callback\s*=\s*["']([A-Za-z_][\w.]*:[A-Za-z_][\w.]*)["']\s*(#.*)?$""")
# Odoo's data files: `ir.cron` records.
_DATA_SUFFIXES = (".xml",)
_CRON_FOLDERS = ("cron", "cron.d", "cron.hourly", "cron.daily", "cron.weekly", "cron.monthly")
# Kubernetes manifests: a `kind: CronJob`'s containers run their `command` and `args` on its schedule.
_MANIFEST_SUFFIXES = (".yaml", ".yml")
_CRONJOB_KIND = re.compile(r"^\s*kind:\s*CronJob\s*$", re.MULTILINE)


def is_schedule_file(name: str, folder: str = "") -> bool:
    """By its name, or its folder's (`cron.d/app`, `cron.daily/backup`)."""
    lowered = name.lower()
    return ("cron" in lowered or lowered.endswith((*_TEXT_SUFFIXES, *_CONFIG_SUFFIXES, *_DATA_SUFFIXES, *_MANIFEST_SUFFIXES,
                                                  ".timer", ".service"))
            or lowered in (*_PACKAGE_FILES, *_PACKAGE_README)
            or os.path.basename(folder.rstrip("/\\")).lower() in _CRON_FOLDERS)


@dataclass(frozen=True)
class Schedules:
    """What the texts beside the code say: the crontab lines, and the console scripts
    (command name -> "module:function")."""

    lines: tuple = ()
    scripts: tuple = ()  # ((name, target), ...)
    callbacks: tuple = ()  # ((display path, line, "module:attr"), ...): consumers a configuration names
    # ((display path, line, model, method, kind), ...): the methods Odoo's data records name (a
    # scheduled action's, a queue_job function's); the model as written, a name (`sale.order`) or
    # its record id (`model_sale_order`)
    actions: tuple = ()


def cron_lines(text: str, path: str) -> list[CronLine]:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > MAX_LINE or ("*" not in line and "@" not in line and not _NUMBERS.search(line)):
            continue
        found = _CRON.match(line) or _NICKNAME.match(line)
        if found is not None:
            out.append(CronLine(path, number, found.group("command").strip().rstrip("`")))
    return out


# Documentation says in prose which of its commands cron runs: "The plugins are executed with the
# ``ralph deploy`` command regularly by cron.", "Then run (or add a cron job)::" over a literal
# block. A paragraph that says cron runs something (not "instead of cron") schedules the commands
# it quotes and those of the code block that follows it; what they run is decided as for a crontab line.
_DOC_SUFFIXES = (".rst", ".md", ".txt")
# What was done once, not how it runs: changelogs, release notes, towncrier's fragments.
_HISTORY = ("change", "history", "news", "release", "whatsnew", "whats_new", "whats-new")


def _history(display: str) -> bool:
    parts = display.replace("\\", "/").lower().split("/")
    return any(part.startswith(_HISTORY) for part in parts)


# Cron running something: "from cron", "by cron", "a cron job", "your crontab", "a scheduler like
# cron"; not "a cron expression", nor a comparison ("works like cron").
_CRON_WORD = re.compile(r"\b(?:crontab|cron[ -]?jobs?|(?:from|by|in|via|with|using|through|under|to|such\s+as"
                        r"|(?:schedul\w*|tools?|services?|daemons?|something)\s+like)\s+(?:the\s+|your\s+|a\s+"
                        r"|system\s+)?[`*'\"]{0,2}cron)\b(?![`*'\"]{0,2}[ -](?:expressions?|syntax|format|strings?|notation|specs?|style|like))",
                        re.IGNORECASE)  # (written as code or emphasis too: "with ``cron``")


def _turned_down(word: str) -> re.Pattern:
    """A clause that turns `word` down: a negation before it ("by hand, instead of from cron") or
    after it ("cron is not needed")."""
    return re.compile(rf"(?:\b(?:not|never|instead of|rather than|no longer|without|unlike|no need)\b|n't\b)[^.:;]{{0,40}}\b{word}"
                      rf"|\b{word}\w*\b[^.:;]{{0,30}}(?:\b(?:not|never|unnecessary|needless)\b|n't\b)", re.IGNORECASE)


_NOT_CRON = _turned_down("cron")
# A paragraph that asks for a scheduled task without naming cron ("Set up a scheduled task to run
# audits automatically:", "Run it as a periodic job"); not one that turns it down.
_SCHEDULED_TASK = re.compile(r"\b(?:scheduled|periodic|recurring)\s+(?:tasks?|jobs?)\b", re.IGNORECASE)
_NOT_SCHEDULED = _turned_down("(?:scheduled|periodic|recurring)")
_INLINE_CODE = re.compile(r"``([^`]+)``|(?<![`:])`([^`<>]+)`(?![`_])")
_ROLE = re.compile(r":[\w:.-]+:`[^`]*`")  # reST's :class:`~celery.schedules.crontab`: a name, not prose
_NOT_SHELL = re.compile(r"^\s*(?:```|~~~|\.\.\s+[\w-]+::)\s*(?!(?:bash|sh|shell|console|shell-session|text|none|cron|crontab)\b)\w",
                        re.IGNORECASE)  # a code block in a language other than the shell's
_CODE_WORDS = ("from", "import", "def", "class", "return", "if", "for", "with", "print", "async", "await", "@", ">>>")
_ITEM = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#\.\s|\||#{1,6}\s)")  # a list item, a table row, a heading
_PROMPT = re.compile(r"^\s*(?:\$|%|>>>|\(\w+\)\s*\$)\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s*#{1,6}\s")
_LIKE_CRON = re.compile(r"\blike\s+cron\b", re.IGNORECASE)
_CRON_HEADING = re.compile(r"\bcron(?:tab|[ -]?jobs?)?\b(?![ -](?:expressions?|syntax|format|strings?|notation|specs?))",
                           re.IGNORECASE)  # a heading names its subject: "Cron", "Run the worker (cron-friendly)"
_NO_FENCE = re.compile(r"(?!)")
_BLOCK_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:code-block|code|sourcecode|prompt)::")


def prose_cron_lines(text: str, path: str) -> list[CronLine]:
    """The commands a paragraph about cron quotes, and those of the code block (or the one quoted
    command alone in a paragraph) after it."""
    out: list[CronLine] = []
    lines = text.splitlines()
    # `~~~~` underlines a reST title; a package's metadata holds its README, Markdown as often as not
    markdown = path.lower().endswith(".md") or os.path.basename(path).lower() in _PACKAGE_README
    fence = _FENCE if markdown else _NO_FENCE
    # [start, end) of each paragraph: a run of non-blank lines, where each item of a list, row of a
    # table and heading is one of its own (one item about cron says nothing of the others).
    paragraphs: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        if fence.match(lines[i]):  # a fenced block is one paragraph, blank lines and all
            i += 1
            while i < len(lines) and not fence.match(lines[i]):
                i += 1
            if i >= len(lines):
                i = start + 1  # never closed: the fence line alone, not the rest of the file
            else:
                i += 1
        else:
            i += 1
            while i < len(lines) and lines[i].strip() and not fence.match(lines[i]) and not _ITEM.match(lines[i]):
                i += 1
        paragraphs.append((start, min(i, len(lines))))
    for n, (start, end) in enumerate(paragraphs):
        prose = _ROLE.sub("", " ".join(line.strip() for line in lines[start:end]))
        heading = lines[start] if markdown and _HEADING.match(lines[start]) else ""  # (the text under it is no part of it)
        if heading and ((_CRON_HEADING.search(heading) and not _NOT_CRON.search(heading))
                        or (_SCHEDULED_TASK.search(heading) and not _NOT_SCHEDULED.search(heading))):
            # A section about cron ("## Run the worker (cron-friendly)"): its code blocks, to the
            # next heading, are what cron runs, but one its paragraph turns down ("Scheduled tasks
            # are not needed for archiving:") or compares ("works like cron, but in the process:").
            section = list(itertools.takewhile(lambda p: not _HEADING.match(lines[p[0]]), paragraphs[n + 1:]))
            for i, (first, last) in enumerate(section):
                said = " ".join(lines[section[i - 1][0]:section[i - 1][1]]) if i else ""
                if fence.match(lines[first]) and not (_NOT_CRON.search(said) or _NOT_SCHEDULED.search(said)
                                                      or _LIKE_CRON.search(said)):
                    out.extend(_block_commands(lines, first, last, path, fence))
            continue
        if len(prose) > 4 * MAX_LINE or fence.match(lines[start]) or not (
                (_CRON_WORD.search(prose) and not _NOT_CRON.search(prose))
                or (_SCHEDULED_TASK.search(prose) and not _NOT_SCHEDULED.search(prose))):
            continue
        for number in range(start, end):
            line = _ROLE.sub("", lines[number])
            for found in _INLINE_CODE.finditer(line):
                command = _command_of(found.group(1) or found.group(2))
                # A command, not a name mentioned (``intelmq`` user): arguments, or a program's name
                # (``mapproxy-seed``, ``bin/backup``) in the very clause that says cron runs it.
                if len(command.split()) > 1 or (_PROGRAM_NAME.search(command) and _cron_clause(line, found.start())):
                    out.append(CronLine(path, number + 1, command))
            out.extend(CronLine(path, number + 1, word, mention=True) for word in _words_in_cron_clauses(line))
        out.extend(_block_after(lines, paragraphs, n, path, fence))
    return [line for line in out if line.command and len(line.command) <= MAX_LINE]


_CLAUSE_END = re.compile(r"[.;:!?](?=\s|$)")
_PROGRAM_NAME = re.compile(r"\w[-/_]\w")  # `mapproxy-seed`, `bin/backup`: no word of prose is spelled so


_PROSE_WORD = re.compile(r"(?<![\w`/.-])[A-Za-z][\w-]*\w(?![\w`/-])")


def _words_in_cron_clauses(line: str) -> list[str]:
    """The words of prose (not code) in each clause of `line` that says cron runs something."""
    prose = _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
    out: list[str] = []
    for begin, end in _clauses(prose):
        if _says_cron(prose[begin:end]):
            out.extend(w for w in dict.fromkeys(_PROSE_WORD.findall(prose[begin:end])) if w not in out)
    return out


def _cron_clause(line: str, at: int) -> bool:
    """Does the clause of `line` around position `at` say that cron runs something?"""
    return any(_says_cron(line[begin:end]) for begin, end in _clauses(line) if begin <= at < end)


def _clauses(line: str) -> list[tuple[int, int]]:
    """[begin, end) of each clause of `line` (between `.`, `;`, `:`, `!`, `?`)."""
    stops = [0, *(m.end() for m in _CLAUSE_END.finditer(line)), len(line)]
    return list(zip(stops, stops[1:]))


def _says_cron(clause: str) -> bool:
    return bool(_CRON_WORD.search(clause)) and not _NOT_CRON.search(clause)


_QUOTED_ALONE = re.compile(r"``([^`]+)``|`([^`]+)`")


def _block_after(lines: list[str], paragraphs: list[tuple[int, int]], n: int, path: str,
                 fence: re.Pattern) -> list[CronLine]:
    """The code block right after paragraph `n`: fenced (Markdown), or indented after a paragraph
    ending in `::` or a `.. code-block::` directive (reStructuredText)."""
    start, end = paragraphs[n]
    following = paragraphs[n + 1] if n + 1 < len(paragraphs) else None
    if following is not None and _BLOCK_DIRECTIVE.match(lines[following[0]]) \
            and all(line.strip().startswith(":") for line in lines[following[0] + 1:following[1]]):  # its options
        if _NOT_SHELL.match(lines[following[0]]):
            return []
        n, following = n + 1, paragraphs[n + 2] if n + 2 < len(paragraphs) else None
    elif following is not None and following[1] - following[0] == 1 and _QUOTED_ALONE.fullmatch(lines[following[0]].strip()):
        # a paragraph that is one quoted command: ``manage.py adyen_maintenance``
        quoted = _QUOTED_ALONE.fullmatch(lines[following[0]].strip())
        command = _command_of(quoted.group(1) or quoted.group(2))
        return [CronLine(path, following[0] + 1, command)] if command else []
    elif not lines[end - 1].rstrip().endswith("::") and not (following and fence.match(lines[following[0]])):
        return []
    if following is None:
        return []
    return _block_commands(lines, *following, path, fence)


def _block_commands(lines: list[str], first: int, last: int, path: str, fence: re.Pattern) -> list[CronLine]:
    """The commands of the code block of lines [first, last): fenced, or indented."""
    if fence.match(lines[first]):
        body = range(first + 1, last - 1 if last - 1 > first and fence.match(lines[last - 1]) else last)
        if _YAML_FENCE.match(lines[first]):
            return yaml_commands(lines, body.start, body.stop, path)  # a Kubernetes CronJob's container
        if _NOT_SHELL.match(lines[first]):
            return []
    elif lines[first][:1].isspace():
        body = range(first, last)
    else:
        return []
    out = []
    for number in body:
        command = _command_of(lines[number])
        if command and not command.startswith(("#", "@")) and command.split()[0] not in _CODE_WORDS:  # `@reboot`
            out.append(CronLine(path, number + 1, command))
    return out


_YAML_FENCE = re.compile(r"^\s*(```|~~~)\s*(yaml|yml)\b", re.IGNORECASE)
_YAML_LIST = re.compile(r"^(\s*)(?:-\s+)?(command|args)\s*:\s*(\[.*\])?\s*$")
_YAML_ITEM = re.compile(r"^(\s*)-\s+(.*?)\s*$")


def yaml_commands(lines: list[str], start: int, stop: int, path: str) -> list[CronLine]:
    """The commands a Kubernetes CronJob's container runs, in YAML (`command:` then `args:`, each a
    list of words: `- python`, `- manage.py`, `- event_cleaner`, or `["python", "manage.py", ...]`),
    lines [start, stop) of `lines`: one command each, its words joined, at the line of its first."""
    out: list[CronLine] = []
    words: list[str] = []
    at, last = 0, ""
    for number in range(start, stop):
        listed = _YAML_LIST.match(lines[number])
        if listed is None:
            continue
        indent = len(listed.group(1))
        # A container's `args` go on its `command`; any other list starts another container's.
        if not (listed.group(2) == "args" and last == "command"):
            if words:
                out.append(CronLine(path, at, " ".join(words)))
            words, at = [], number + 1
        last = listed.group(2)
        if listed.group(3):  # `args: ["manage.py", "event_cleaner"]`
            words.extend(w.strip().strip("\"'") for w in listed.group(3)[1:-1].split(",") if w.strip())
            continue
        for following in range(number + 1, stop):
            item = _YAML_ITEM.match(lines[following])
            if item is None or len(item.group(1)) < indent:
                break
            words.append(item.group(2).strip("\"'"))
    if words:
        out.append(CronLine(path, at, " ".join(words)))
    return [line for line in out if len(line.command) <= MAX_LINE]


def _command_of(quoted: str) -> str:
    """The command quoted (`$ ralph deploy`, `0 3 * * * ralph deploy`): no prompt, no time fields."""
    command = _PROMPT.sub("", quoted).strip()
    timed = _CRON.match(command) or _NICKNAME.match(command)
    return timed.group("command").strip() if timed else command


def read_schedules(files: list[tuple[Path, str]]) -> Schedules:
    """The crontab lines and console scripts of these files (absolute path, display path); a file
    that cannot be read, is too large or is not text gives none."""
    lines: list[CronLine] = []
    scripts: dict[str, str] = {}
    services: dict[str, tuple[str, str]] = {}  # unit name -> (display, text)
    timers: list[tuple[str, str]] = []  # (unit name it starts, timer's display)
    shell: dict[str, list[tuple[str, str]]] = {}  # a shell script's file name -> [(display, text)]
    callbacks: list[tuple[str, int, str]] = []
    actions: list[tuple[str, int, str, str]] = []
    for path, display in files:
        try:
            if os.stat(path).st_size > MAX_TEXT_SIZE:
                continue  # a log or a data file: not read at all
            data = read_source(path)
        except OSError:
            continue
        if len(data) > MAX_TEXT_SIZE or b"\0" in data[:4096]:
            continue
        text = data.decode("utf-8", errors="replace")
        name = path.name.lower()
        if name.endswith(".service"):
            services[path.name] = (display, text)
        elif name.endswith(".timer"):
            unit = re.search(r"^\s*Unit\s*=\s*(\S+)", text, re.MULTILINE)
            timers.append((unit.group(1) if unit else path.name[: -len(".timer")] + ".service", display))
        elif name == "pyproject.toml":
            scripts.update(_pyproject_scripts(text))
        elif name == "setup.cfg":
            scripts.update(_ini_scripts(text))
        elif name == "entry_points.txt" and path.parent.name.endswith((".dist-info", ".egg-info")):
            scripts.update(_installed_scripts(text))
        elif name.endswith(_CONFIG_SUFFIXES):
            callbacks.extend(configured_callbacks(text, display))
        elif name.endswith(_DATA_SUFFIXES):
            actions.extend(scheduled_actions(text, display))
        elif name.endswith(_MANIFEST_SUFFIXES):
            if _CRONJOB_KIND.search(text):
                manifest = text.splitlines()
                lines.extend(yaml_commands(manifest, 0, len(manifest), display))
        else:
            lines.extend(cron_lines(text, display))
            if (name.endswith(_DOC_SUFFIXES) or name in _PACKAGE_README) and not _history(display):
                lines.extend(prose_cron_lines(text, display))
            if name.endswith(".sh"):
                shell.setdefault(path.name, []).append((display, text))
    for unit, _ in timers:
        if unit in services:
            display, text = services[unit]
            for number, line in enumerate(text.splitlines(), start=1):
                found = re.match(r"^\s*ExecStart\s*=\s*[-@:+!]*(\S.*)$", line)
                if found:
                    lines.append(CronLine(display, number, found.group(1).strip()))
    lines = list(dict.fromkeys(lines))  # a crontab line in a code block about cron is read twice
    return Schedules(tuple(lines + _scripts_run(lines, shell)), tuple(sorted(scripts.items())), tuple(callbacks),
                     tuple(actions))


def configured_callbacks(text: str, display: str) -> list[tuple[str, int, str]]:
    """The consumer a message consumer's configuration names at its top level, before any table
    (`callback = "app.consumer:Handler"`): (display, line, "module:attr")."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("["):
            break
        found = _CALLBACK.match(line.strip()) if len(line) <= MAX_LINE else None
        if found is not None:
            out.append((display, number, found.group(1)))
    return out


_ATTR = re.compile(r"""([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# `model.method()` in a cron's code, through the recordset methods that pick the records or who
# runs it (`model.sudo()._cron_send()`, `model.search([])._cron_check()`); `env['res.partner']`
# names its model.
_ARGS = r"\((?:[^()]|\([^()]*\))*\)"  # an argument list, one level of parentheses inside
_PICKING = rf"(?:(?:sudo|with_context|with_company|with_user|with_env|search|browse|filtered){_ARGS}\s*\.\s*)*"
_ON_MODEL = re.compile(rf"\bmodel\s*\.\s*{_PICKING}([A-Za-z_]\w*)\s*\(")
_ON_ENV = re.compile(rf"""\benv\s*\[\s*["']([\w.]+)["']\s*\]\s*\.\s*{_PICKING}([A-Za-z_]\w*)\s*\(""")
_EVAL_REF = re.compile(r"""ref\(\s*["']([\w.]+)["']\s*\)""")
_RECORDSET_METHODS = frozenset({"search", "browse", "sudo", "with_context", "with_company", "with_user", "env", "ensure_one",
                                "exists", "filtered", "mapped", "sorted"})


# What a data record makes of the method it names: an `ir.cron` runs it on its interval; a
# queue_job `queue.job.function` declares it a job function, and its `on_fail_method` a hook the
# worker runs once the job has failed.
_RECORD_METHODS = {"ir.cron": (("code", "cron"), ("function", "cron")),
                   "queue.job.function": (("method", "job"), ("on_fail_method", "on_fail"))}


def scheduled_actions(text: str, display: str) -> list[tuple[str, int, str, str, str]]:
    """The methods Odoo data records of an XML file name (`_RECORD_METHODS`): (display, line,
    model, method, what the record makes of it), the model as the record writes it (a name, or the
    id of its `ir.model` record)."""
    if "ir.cron" not in text and "queue.job.function" not in text:
        return []
    out = []
    line, counted = 1, 0
    for start, attrs, body in _elements(text, "record"):
        kinds = _RECORD_METHODS.get(attrs.get("model", ""))
        if kinds is None or body is None:
            continue
        line, counted = line + text.count("\n", counted, start), start
        fields = {}
        for _, field_attrs, value in _elements(body, "field"):
            evaluated = field_attrs.get("eval") or ""
            referred = _EVAL_REF.fullmatch(evaluated.strip())  # `eval="ref('base.model_res_partner')"`
            value = field_attrs.get("ref") or (referred.group(1) if referred else evaluated) or html.unescape(value or "")
            fields[field_attrs.get("name")] = value.replace("<![CDATA[", "").replace("]]>", "").strip().strip("'\"")
        model = fields.get("model_id", "").rpartition(".")[2] or fields.get("model", "")
        for name, kind in kinds:
            value = fields.get(name, "")
            if name == "code":
                calls = [(model, m) for m in _ON_MODEL.findall(value)] + _ON_ENV.findall(value)
            else:  # a method's name (`function`: Odoo 10 and before)
                calls = [(model, value)] if re.fullmatch(r"[A-Za-z_]\w*", value) else []
            out.extend((display, line, on, method, kind) for on, method in calls
                       if on and method not in _RECORDSET_METHODS)
    return list(dict.fromkeys(out))


def _elements(text: str, tag: str):
    """(offset, attributes, body) of each `<tag ...>body</tag>` (body None for `<tag .../>` or
    one never closed). Each opening tag is paired with the next closing one, found by bisection
    in the list of closings, so that a file of unclosed tags costs no more than one pass."""
    closings = [m.start() for m in re.finditer(rf"</{tag}\s*>", text)]
    for found in re.finditer(rf"<{tag}\b([^>]*)>", text):
        attrs, start = found.group(1), found.end()
        if attrs.endswith("/"):
            yield found.start(), _attrs(attrs[:-1]), None
            continue
        i = bisect.bisect_left(closings, start)
        yield found.start(), _attrs(attrs), text[start:closings[i]] if i < len(closings) else None


def _attrs(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3) for m in _ATTR.finditer(text)}


MAX_SCRIPT_LINES = 5000  # commands read from the scripts schedules run, in all


def _scripts_run(lines: list[CronLine], shell: dict[str, list[tuple[str, str]]]) -> list[CronLine]:
    """The commands of the project's shell scripts a schedule runs (`*/5 * * * * /srv/poll.sh`,
    found by the script's path, the longest match of its folders deciding between scripts of the
    same name), and of the scripts those run in turn: each runs on the schedule that runs the
    script. Only a script in command position counts (`bash x.sh`, not `[ -x x.sh ]`)."""
    out: list[CronLine] = []
    done: set[str] = set()
    todo = [line for line in lines if not line.mention]  # (a word of prose names no script's path)
    while todo and len(out) < MAX_SCRIPT_LINES:
        line = todo.pop()
        for word in _commands(line.words):
            found = _script_named(word.strip("'\""), shell)
            if found is None or found[0] in done:
                continue
            done.add(found[0])
            for number, command in _script_commands(found[1]):
                out.append(CronLine(found[0], number, command))
                todo.append(out[-1])
    return out[:MAX_SCRIPT_LINES]


_SEPARATORS = ("&&", "||", ";", "|")
_LAUNCHERS = ("sh", "bash", "exec", "source", ".", "nice", "ionice", "sudo", "flock", "timeout", "chronic")


def _commands(words: list[str]) -> list[str]:
    """The words in command position: the first, one after a separator or a launcher (`bash`),
    and the second of a system crontab's line (`deploy /srv/x.sh`, after the user field)."""
    out = []
    for i, word in enumerate(words):
        before = words[i - 1] if i else None
        if i == 0 or before in _SEPARATORS or before in _LAUNCHERS or (i == 1 and "/" not in words[0]):
            out.append(word)
    return out


def _script_named(word: str, shell: dict[str, list[tuple[str, str]]]) -> tuple[str, str] | None:
    """The project's script a command names, by its path: the one whose folders match most of the
    word's, when only one does."""
    scripts = shell.get(os.path.basename(word))
    if not scripts:
        return None
    wanted = [p for p in word.replace("\\", "/").split("/") if p not in ("", ".")]

    def matched(display: str) -> int:
        have = display.replace("\\", "/").split("/")
        n = 0
        while n < min(len(have), len(wanted)) and have[-1 - n] == wanted[-1 - n]:
            n += 1
        return n

    best = max(matched(d) for d, _ in scripts)
    chosen = [s for s in scripts if matched(s[0]) == best]
    return chosen[0] if len(chosen) == 1 else None


_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)")
_FUNCTION = re.compile(r"^\s*(?:function\s+)?[\w-]+\s*\(\s*\)\s*\{?\s*$|^\s*function\s+[\w-]+\s*\{?\s*$")


def _script_commands(text: str) -> list[tuple[int, str]]:
    """The command lines of a shell script, each with its line: continuations joined; comments,
    heredoc bodies, function bodies and `case` blocks left out (what they run depends on how the
    script is called)."""
    out: list[tuple[int, str]] = []
    rows = text.splitlines()
    i = 0
    end_heredoc = None
    skip_until = None  # "}" of a function body, "esac" of a case block
    while i < len(rows):
        number, row = i + 1, rows[i]
        i += 1
        while row.endswith("\\") and i < len(rows):
            row = row[:-1] + " " + rows[i]
            i += 1
        stripped = row.strip()
        if end_heredoc is not None:
            if stripped == end_heredoc:
                end_heredoc = None
            continue
        if skip_until is not None:
            if stripped.startswith(skip_until):
                skip_until = None
            continue
        if not stripped or stripped.startswith("#") or len(stripped) > MAX_LINE:
            continue
        if _FUNCTION.match(row):
            skip_until = "}"
            continue
        if stripped.startswith("case ") and stripped.endswith(" in"):
            skip_until = "esac"
            continue
        heredoc = _HEREDOC.search(stripped)
        if heredoc:
            end_heredoc = heredoc.group(1)
        out.append((number, stripped))
    return out


def _pyproject_scripts(text: str) -> dict[str, str]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except ValueError:
        return {}
    found: dict = {}
    for keys in (("project", "scripts"), ("tool", "poetry", "scripts")):
        table = data
        for key in keys:  # any table may hold anything: a build tool's test fixture, a typo
            table = table.get(key) if isinstance(table, dict) else None
        if isinstance(table, dict):
            found.update(table)
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str) and ":" in v}


_ENTRY_POINT_SECTIONS = ("options.entry_points", "entry_points")  # setuptools', pbr's


def _installed_scripts(text: str) -> dict[str, str]:
    """An installed package's `*.dist-info/entry_points.txt` (a wheel unpacked, site-packages):
    its `[console_scripts]` section, one `name = module:function` a line."""
    out: dict[str, str] = {}
    section = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
            continue
        name, eq, target = stripped.partition("=")
        if section == "console_scripts" and eq and name.strip() and ":" in target:
            out[name.strip()] = target.strip().split()[0]
    return out


def _ini_scripts(text: str) -> dict[str, str]:
    """setup.cfg's `console_scripts =` option of `[options.entry_points]` (pbr: `[entry_points]`)."""
    out: dict[str, str] = {}
    section = option = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section, option = stripped[1:-1].strip(), None
            continue
        if section in _ENTRY_POINT_SECTIONS and stripped and not line[:1].isspace():
            option = stripped.partition("=")[0].strip()
            stripped = stripped.partition("=")[2].strip()
        if section in _ENTRY_POINT_SECTIONS and option == "console_scripts":
            name, eq, target = stripped.partition("=")
            if eq and name.strip() and ":" in target:
                out[name.strip()] = target.strip().split()[0]
    return out
