"""Commands a scheduler runs: a Django management command (`class Command(BaseCommand)` with
`handle`) or a click / typer command whose help says it runs on a schedule ("Run nightly by cron",
"every 15 minutes", "scheduled hourly"), or whose help or name says it removes what is old,
expired or done (retention upkeep: "Delete old jobs", `purge_completed_tasks`), is a periodic job
(kind "periodic"). The help is the
`help` attribute, the `help=` keyword or the docstring (the class's, or the module's of a
Django command's file): the one place a command says how it is run. A Django command's docstrings
are about it alone, so any sentence of theirs that says it is run on a schedule counts ("intended
to be run ... at least once a day", "Meant to run on a plain schedule (cron or a systemd timer)"),
unless the same sentence says by hand or of something else ("Unlike the mirror refresh, which runs
periodically"). So is a Django command whose `handle` runs a loop until stopped, sleeping between rounds
(a daemon a service manager keeps running: `while True: poll(); time.sleep(60)`, or a worker's
loop it starts). A command
with neither (a one-off `create-admin`, a `loaddata`) is not a job.

A crontab line beside the code (a `crontab` file, a shell script, the deployment documentation:
`analysis/schedule_text.py`) schedules what it runs, whatever the help says:
`python manage.py get_email` runs that Django command, `ckan notify send_emails` the click or
typer command of that name, `python scripts/nightly.py` or `python -m app.nightly` that script's
`main` (or the functions of its own its module code calls), and a console script the package
declares its function (or the function of its module the next word names: a subcommand, also
the handler an argparse program gives that subcommand, named for it: `python -m gigs digest` runs
`set_defaults(func=cmd_digest)`'s `cmd_digest`; or,
when the script is manage.py under another name, the Django command the next word names); a
program no packaging file declares (scripts built in a loop in `setup.py`) runs the `main` (or
`run`) of the one module of the application named as it is (`roundup-mailgw` ->
`roundup_mailgw.py`). A
systemd timer's service counts as a crontab line, and so does a command the documentation quotes
in a paragraph about cron ("run ``ralph deploy`` regularly from cron"; a name that can only be a
Django command of the project, quoted alone: "the `emit_notices` management command, from your
crontab"); a program of the
application's (a console script, or a script with no extension) named in prose in a clause that
says cron runs something ("I'm running getmail from cron") runs its `main`.

Nothing retries a command: the next run is the next tick, so one that fails half-way runs again
from the start then, and one that outlasts its interval overlaps the next unless it takes a lock.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..analysis.decorators import decorated_functions
from ..analysis.jobs import JobSite, Registration, RetryLimit
from ..analysis.program import classes_where, deco_name
from ..analysis.words import name_words
from ..analysis.project import Project
from ..analysis.summary import MODULE_CODE
from ..analysis.values import lit
from .background_loops import argparse_handlers, repeats_forever
from .base import job_from_function, policy

COMMAND_BASES = ("django.core.management.base.BaseCommand", "django.core.management.BaseCommand")
COMMAND_DECORATORS = ("click.command", "click.group().command", "typer.Typer().command")
_SCHEDULED = re.compile(
    r"\b(cron(tab)?|cronjob|scheduled?|periodic(ally)?|nightly|hourly|daily|weekly|monthly"
    r"|every\s+(\d+\s*)?(minutes?|hours?|days?|nights?|mornings?|evenings?|weeks?|months?|min|h)"
    r"|once\s+(a|an|per|every)\s+(minute|hour|day|night|week|month))\b",
    re.IGNORECASE,
)
# A sentence that says how the command is run ("is intended to be run ... at least once a day",
# "Meant to run on a plain schedule (cron/systemd timer)").
_RUN = re.compile(r"\b(run|runs|running|ran|executed|invoked|called|triggered|started)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")
_BY_HAND = re.compile(r"\b(by hand|manually|on demand|ad[- ]hoc|interactively|unlike)\b", re.IGNORECASE)
_NEGATED = re.compile(r"\b(not|never|once)\b[^.]{0,30}\b(cron|schedul|periodic)", re.IGNORECASE)


# Retention: removing what is old, expired or done ("Delete old jobs", "Purge completed tasks",
# `cleanup_stale_radacct`) is upkeep that exists to be run again and again.
_REMOVES = (r"(delet(e|es|ing)|purg(e|es|ing)|prun(e|es|ing)|clean(s|ing)?\s*up|cleanup|clean|cleans|remov(e|es|ing)"
            r"|clear(s|ing)?|expire|expires|vacuum\w*|garbage[ -]?collect\w*|trim(s|ming)?|rotat(e|es|ing))")
_OLD = (r"(old|older|obsolete|stale|expired|outdated|finished|completed|dead|orphan\w*|inactive|unused|stuck|abandoned"
        r"|retention)")
_RETENTION = re.compile(rf"\b{_REMOVES}\b[^.\n]{{0,60}}\b{_OLD}\b|\b{_OLD}\b[^.\n]{{0,30}}\b{_REMOVES}\b", re.IGNORECASE)


def says_retention(*texts: str | None) -> bool:
    """A command's help (first paragraph) or name says it removes what is old, expired or done."""
    return any(_RETENTION.search((t or "").strip().split("\n\n", 1)[0].replace("_", " ")) for t in texts)


def says_scheduled(text: str | None) -> bool:
    """The help's first paragraph, where a command says what it is for ("Run nightly by cron"):
    the rest describes options and output ("show all tasks, including scheduled ones")."""
    summary = (text or "").strip().split("\n\n", 1)[0]
    return bool(_SCHEDULED.search(summary)) and not _NEGATED.search(summary)


def says_run_on_schedule(docstring: str | None) -> bool:
    """A docstring with a sentence anywhere in it that says the command is run on a schedule: a
    command's module or class docstring is all about the command, unlike a help text's later
    paragraphs about its options."""
    return any(_RUN.search(s) and _SCHEDULED.search(s) and not _NEGATED.search(s) and not _BY_HAND.search(s)
               for s in _SENTENCE_END.split(docstring or ""))


class ScheduledCommands:
    name = "command"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        # Any `X.command`: a click group or a typer app of the application's own (`@tickets.command()`
        # under `@click.group() def tickets()`) is told apart in `find_jobs`.
        return name in COMMAND_DECORATORS or name.endswith(".command")

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        cron = _cron_words(project)

        def wanted(cls) -> bool:
            return "handle" in cls.methods and any(b in COMMAND_BASES for b in project.class_bases(cls))

        for cls in classes_where(project, wanted):
            help_text = lit(cls.attrs["help"][0]) if "help" in cls.attrs else None
            help_text = help_text if isinstance(help_text, str) else None
            docstrings = (cls.docstring, project.module_of_class(cls).docstring)
            scheduled = says_scheduled(help_text) or any(says_scheduled(d) or says_run_on_schedule(d) for d in docstrings) \
                or says_retention(help_text, cls.docstring, cls.qualname.rpartition(".")[0].rpartition(".")[2])
            handle = project.functions.get(f"{cls.qualname}.handle")
            in_cron = _django_in_cron(cron, cls.qualname)
            if not scheduled and in_cron is None and not (handle is not None and _daemon(project, handle)):
                continue
            anchor = project.class_anchor(cls)
            site = JobSite(
                function=f"{cls.qualname}.handle", framework=self.name, kind="periodic", path=anchor.path,
                anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"},
            )
            site.retry = _never_retried(anchor)
            _note(site, in_cron)
            sites.append(site)
        for d in decorated_functions(project, self.name):
            if not _cli_command(project, d.name):
                continue
            help_text = lit(d.value[3].get("help")) if d.is_call else None
            in_cron = next((cron.words[n] for n in _command_names(d) if n in cron.words), None)
            help_text = help_text if isinstance(help_text, str) else None
            if (says_scheduled(help_text) or says_scheduled(d.function.docstring) or in_cron is not None
                    or says_retention(help_text, d.function.docstring, *_command_names(d))):
                site = job_from_function(project, d.function, self.name, "periodic", triggers={"schedule"})
                site.retry = _never_retried(d.anchor)
                _note(site, in_cron)
                sites.append(site)
        for fn, line in [*_scripts_in_cron(project, cron), *_console_scripts_in_cron(project, cron)]:
            site = job_from_function(project, fn, self.name, "periodic", triggers={"schedule"})
            site.retry = _never_retried(site.anchor)
            _note(site, line)
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


def _daemon(project: Project, handle) -> bool:
    """`handle`, or what it runs two calls down (`QueueWorker(model).run()`, `send_loop()`), repeats
    work forever, sleeping between rounds, in a loop that never breaks out
    (`while True: batch = next_batch(); if not batch: break` is one run through the work). Only
    here: a worker thread's loop breaks on its stop sentinel and still repeats until stopped,
    while a command is started for its work, so a loop it can leave is that work done once."""
    return any(repeats_forever(project, fn) and not any(loop in fn.forever for loop, *_ in fn.breaks)
               for fn in project.within_calls(handle, 2))


# Command names too common to tell one application's command from another's in a crontab line.
_GENERIC = {"run", "start", "serve", "server", "worker", "shell", "main", "cli", "app", "beat", "celery", "python",
            "manage", "init", "web", "test", "tests", "help", "version"}


@dataclass
class _CronWords:
    words: dict = field(default_factory=dict)  # every word of a crontab command -> its first line
    leading: dict = field(default_factory=dict)  # the first word of a crontab command -> its line
    django: dict = field(default_factory=dict)  # a Django command `manage.py NAME` runs -> its line
    scripts: dict = field(default_factory=dict)  # (`x/y.py` or `-m x.y` run by python, the next word) -> its line
    console: list = field(default_factory=list)  # (console script's "module:function", words after it, line)


def _cron_words(project: Project) -> _CronWords:
    def read() -> _CronWords:
        out = _CronWords()
        programs = _programs(project)
        for line in project.cron_lines:
            if line.mention:
                entry = project.console_scripts.get(line.command) or _script_program(project, line.command)
                if entry is not None:
                    out.console.append((entry, [], line))
                continue
            words = line.words
            # Command names count from the application's own program on (`certbot renew` in the
            # same docs names no command of this application).
            start = next((i for i, w in enumerate(words) if _runs_the_application(w, programs)), len(words))
            if words:
                out.leading.setdefault(words[0], line)
            for i, word in enumerate(words):
                if i >= start:
                    out.words.setdefault(word, line)
                following = [w for w in words[i + 1:] if not w.startswith("-")]
                if (word.endswith("manage.py") or word in ("django-admin", "django-admin.py")) and following:
                    out.django.setdefault(following[0], line)
                elif word.endswith(".py") and not word.endswith("manage.py"):
                    out.scripts.setdefault(("path", word.lstrip("./"), next(iter(following), "")), line)
                elif word == "-m" and i + 1 < len(words):
                    after = [w for w in words[i + 2:] if not w.startswith("-")]
                    out.scripts.setdefault(("module", words[i + 1], next(iter(after), "")), line)
                elif word.rpartition("/")[2] in project.console_scripts:
                    entry = project.console_scripts[word.rpartition("/")[2]]
                    out.console.append((entry, following, line))
                    if following and _runs_manage(project, entry):
                        out.django.setdefault(following[0], line)  # `ralph deploy`: manage.py's `deploy`
                elif i == start and (entry := _script_module(project, word)) is not None:
                    out.console.append((entry, following, line))
        return out
    return project.once("crontab words", read)


_MANAGE = ("django.core.management.execute_from_command_line", "django.core.management.ManagementUtility().execute")


def _script_module(project: Project, word: str) -> str | None:
    """A program the crontab line runs that no packaging file declares (a `setup.py` that builds its
    console scripts in a loop): the one module of the application named as it is (`roundup-mailgw`
    -> `roundup.scripts.roundup_mailgw`) whose `main` (or `run`) is its entry point."""
    name = word.rpartition("/")[2].replace("-", "_")
    if not name.isidentifier():
        return None
    return _entry_of_the_one(project, lambda m: m.module.rpartition(".")[2] == name)


def _script_program(project: Project, word: str) -> str | None:
    """The program a script of the application's with no extension is (`bin/getmail`, which a
    package installs under its own name): its `main` (or `run`)."""
    return _entry_of_the_one(project, lambda m: os.path.basename(m.path) == word)


def _entry_of_the_one(project: Project, named) -> str | None:
    """"module:main" (or `run`) of the one module of the application that `named` accepts; None
    where there is none, or several a reader could not tell apart."""
    modules = [m for m in project.modules.values() if named(m) and project.the_applications(m)]
    if len(modules) != 1:
        return None
    module = modules[0].module
    return next((f"{module}:{f}" for f in ("main", "run") if f"{module}.{f}" in project.functions), None)


def _runs_manage(project: Project, entry: str) -> bool:
    """A console script of the application's own that is Django's manage.py under another name
    (`def main(): os.environ.setdefault(...); execute_from_command_line(sys.argv)`)."""
    module, _, function = entry.partition(":")
    fn = project.functions.get(f"{module}.{function}")
    # Whatever it is given: not in one branch of a command line it reads itself (`if argv[1] == "manage":`).
    return fn is not None and any(ev.kind == "call" and not ev.branch and project.canonical(ev.name) in _MANAGE
                                  for ev in fn.events)


def _cli_command(project: Project, name: str) -> bool:
    """A click or typer command decorator: the library's own, or `.command` of a group the
    application made with `@click.group()` (or typer's `@app.callback()`... on a `typer.Typer()`)."""
    if name in COMMAND_DECORATORS or name.startswith(("click.", "typer.")):
        return True
    group = project.functions.get(name.removesuffix(".command"))
    return group is not None and any((project.canonical(deco_name(value)) or "").startswith(("click.", "typer."))
                                     for value, *_ in group.decorators)


def _programs(project: Project) -> set[str]:
    """What the application is run as: its console scripts, its top-level packages, the click
    groups and typer apps it defines."""
    names = set(project.console_scripts) | {m.partition(".")[0] for m in project.modules}
    for fn in project.functions.values():
        if any((deco_name(value) or "").startswith(("click.group", "click.command", "typer."))
               for value, *_ in fn.decorators):
            names.update((fn.name, fn.name.replace("_", "-")))
    return names


def _runs_the_application(word: str, programs: set[str]) -> bool:
    base = word.rpartition("/")[2].removesuffix(".py")
    return (base in programs or base in ("manage", "django-admin", "flask")
            or any(base.startswith((f"{p}-", f"{p}_")) for p in programs if len(p) > 2))


def _django_in_cron(cron: _CronWords, qualname: str):
    """The crontab line that runs this Django command: `manage.py NAME`, or a name that can only
    be a command (it has a dash or an underscore) after the application's own wrapper of manage.py
    (`scanpipe flush-projects`) or first in the line (the documentation's "the `emit_notices`
    management command, from cron")."""
    if ".management.commands." not in qualname:
        return None
    name = qualname.rsplit(".management.commands.", 1)[1].partition(".")[0]
    if name in cron.django:
        return cron.django[name]
    if ("-" in name or "_" in name) and name not in _GENERIC:
        return cron.words.get(name) or cron.leading.get(name)
    return None


def _command_names(d) -> list[str]:
    """The names a click / typer command is run by: the name given (`@click.command("purge")`,
    `name=`), else its function's name, with underscores as written and as dashes (click 7+)."""
    given = lit(d.value[2][0]) if d.is_call and d.value[2] else lit(d.value[3].get("name")) if d.is_call else None
    names = [given] if isinstance(given, str) else [d.function.name, d.function.name.replace("_", "-")]
    return [n for n in names if n and n not in _GENERIC]


def _scripts_in_cron(project: Project, cron: _CronWords) -> list[tuple]:
    """The script modules a crontab line runs, and what each runs: its `main`, else the functions
    of its own that its module code calls."""
    out = []
    for (how, name, word), line in cron.scripts.items():
        if how == "module":
            mod = project.modules.get(name)
        else:
            mod = next((m for m in project.modules.values() if same_file(m.path, name)), None)
        handler = subcommand_handler(project, mod.module, word) if mod is not None and word else None
        out.extend((fn, line) for fn in ([handler] if handler is not None else program_of(project, mod)))
    return out


# Words a subcommand's handler is named with beside the subcommand's own (`cmd_digest`, `do_scan`).
_HANDLER_WORDS = frozenset({"cmd", "command", "do", "run", "handle", "handler", "on"})


def subcommand_handler(project: Project, package: str, word: str):
    """The handler an argparse program of `package` gives its subcommand `word`
    (`sub.add_parser("digest").set_defaults(func=cmd_digest)`): the one `set_defaults(func=...)`
    handler of the package named for it (its words, and at most `cmd`, `do`, `handle`...)."""
    wanted = set(word.replace("-", "_").lower().split("_")) - {""}
    if not wanted:
        return None
    top = package.partition(".")[0]
    found = []
    for module, handler in argparse_handlers(project):
        words = set(name_words(handler.name))
        if module.module.partition(".")[0] == top and wanted <= words and words - wanted <= _HANDLER_WORDS \
                and handler not in found:
            found.append(handler)
    return found[0] if len(found) == 1 else None


def program_of(project: Project, mod) -> list:
    """What a module run as a program runs: its `main`, else the functions of its own its module
    code calls."""
    if mod is None:
        return []
    main = mod.functions.get(f"{mod.module}.main")
    if main is not None:
        return [main]
    code = mod.functions.get(f"{mod.module}.{MODULE_CODE}")
    out = []
    for ev in code.events if code is not None else ():
        fn = project.function_for(project.canonical(ev.name)) if ev.kind == "call" else None
        if fn is not None and project.function_module[fn.qualname] is mod:
            out.append(fn)
    return out


def _console_scripts_in_cron(project: Project, cron: _CronWords) -> list[tuple]:
    """What a console script named in a crontab line runs: the function of its module the next
    word names (`barman cron` -> `barman.cli.cron`, a subcommand), else its own function."""
    out = []
    for entry, following, line in cron.console:
        if _runs_manage(project, entry):
            continue  # the Django command it names is the job (`_django_in_cron`)
        module, _, function = entry.partition(":")
        sub = next((project.functions.get(f"{module}.{w.replace('-', '_')}") or subcommand_handler(project, module, w)
                    for w in following[:1]), None)
        fn = sub if sub is not None and not sub.class_qualname else project.functions.get(f"{module}.{function}")
        if fn is not None:
            out.append((fn, line))
    return out


def same_file(path: str, written: str) -> bool:
    """`helpdesk/scripts/nightly.py` in the tree and `/srv/app/helpdesk/scripts/nightly.py` in a
    crontab: they end alike, two folders or files at least (a bare `run.py` names no one file)."""
    a, b = path.replace("\\", "/").strip("/").split("/"), written.strip("/").split("/")
    common = 0
    while common < min(len(a), len(b)) and a[-1 - common] == b[-1 - common]:
        common += 1
    return common >= 2 or common == len(a) == len(b) == 1


def _note(site: JobSite, line) -> None:
    if line is not None:
        site.settings["crontab"] = f"{line.path}:{line.line}"


def _never_retried(anchor):
    return policy("a scheduler runs the command once per tick", anchor, retries=RetryLimit.known(0), on=None, from_default=True,
                  backoff="none")


FRAMEWORK = ScheduledCommands()
