"""Programs of the application's own that its code starts as processes: an argument list written
out whose words run a module of the application (`[sys.executable, "-m", "app.worker", op]`, a
module-level `WORKER_COMMAND = (sys.executable, "-P", "-m", "app.worker")` handed to
`subprocess.Popen` later), a Django command (`[sys.executable, "manage.py", "sync_outlook"]`) or a
script of its own (`["python", "tools/sync.py"]`). What the program runs (the module's `main`, or
the functions its module code calls; the command's `handle`) is work started in the background,
in a process of its own: listed as kind `background`, no entry point.

Read from the argument list alone, wherever it is written (a call's argument, a module
constant): words that run one of the application's modules are written for a process to run
them. A list whose module, command or script is not the application's runs nothing here
(`[sys.executable, "-m", "pip", "install", ...]`).
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.project import Project
from .base import job_from_function
from .scheduled_commands import program_of, same_file


class SubprocessPrograms:
    name = "program"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list:
        return []

    def find_started(self, project: Project) -> list[JobSite]:
        out = []
        for words in _argument_lists(project):
            for fn in _runs(project, words):
                if project.the_applications(project.function_module[fn.qualname]):
                    out.append(job_from_function(project, fn, self.name, "background", triggers={"start"}))
        return out


def _argument_lists(project: Project) -> list[list[str]]:
    """The literal words of each sequence written in the application's code that holds a word
    naming Python's way to run a module or a script (`-m`, `*.py`)."""
    found = []

    def visit(value, depth: int = 0) -> None:
        if not value or depth > 3 or not isinstance(value, list):
            return
        if value[0] == "seq":
            words = [v[1] if v and v[0] == "lit" and isinstance(v[1], str) else "" for v in value[1]]
            if "-m" in words or any(w.endswith(".py") for w in words):
                found.append(words)
            return
        if value[0] == "call":
            for v in (*(value[2] or ()), *(value[3] or {}).values()):
                visit(v, depth + 1)

    for mod in project.modules.values():
        if not project.the_applications(mod):
            continue
        for value, *_ in mod.assigns.values():
            visit(value)
        for fn in mod.functions.values():
            for ev in fn.events:
                if ev.kind == "call" and not ev.in_test:
                    for v in (*ev.args, *ev.kwargs.values()):
                        visit(v)
    return found


def _runs(project: Project, words: list[str]) -> list:
    """What the words run: `-m pkg.mod` the module's program, `manage.py NAME` the Django command,
    `x/y.py` the script's program."""
    for i, word in enumerate(words):
        following = [w for w in words[i + 1:] if w and not w.startswith("-")]
        if word == "-m" and i + 1 < len(words):
            return program_of(project, project.modules.get(words[i + 1]))
        if word.endswith("manage.py") and following:
            handle = next((q for q in project.functions
                           if q.endswith(f".management.commands.{following[0]}.Command.handle")), None)
            return [project.functions[handle]] if handle else []
        if word.endswith(".py"):
            mod = next((m for m in project.modules.values() if same_file(m.path, word)), None)
            return program_of(project, mod)
    return []


FRAMEWORK = SubprocessPrograms()
