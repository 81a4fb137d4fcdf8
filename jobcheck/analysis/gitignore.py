"""What git ignores, read as `git status` reads it (with `pathspec`'s gitignore matcher).

Inside a repository (the nearest folder above with `.git`), the `.gitignore` of every folder from
the repository's top down applies to what lies below it: a deeper file's rules win over a
shallower one's, the last matching rule of a file wins, and `.git/info/exclude` comes below them
all. Outside a repository nothing is ignored, as in git (and ripgrep, which ruff's walk is).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from .source import read_source

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

# (folder the rules are relative to, the rules, a regex any path they match matches), deepest first
_Chain = tuple[tuple[str, "GitIgnoreSpec", "re.Pattern | None"], ...]


class GitIgnore:
    """Answers `ignored(path)` for the paths of one listing; reads each ignore file once.

    `read` collects the ignore files read and `looked_in` every folder looked into for one (a
    cached run's record stamps them: editing or adding one changes what a run lists)."""

    def __init__(self) -> None:
        self.read: list[str] = []
        self.looked_in: set[str] = set()
        self._tops: dict[str, str | None] = {}
        self._chains: dict[str, _Chain] = {}

    def ignored(self, path: str, is_dir: bool, below: str | None = None) -> bool:
        """Is `path` (absolute, normalised) ignored? `below`: consult only the rules of `below`
        and the folders under it (a folder given explicitly is listed even if ignored itself)."""
        folder = os.path.dirname(path)
        for base, spec, quick in self._chain(folder):
            if below is not None and not _under(base, below):
                break
            relative = path[len(base):].lstrip(os.sep).replace(os.sep, "/") + ("/" if is_dir else "")
            if quick is not None and not quick.match(relative):
                continue  # no rule of this file matches: it decides nothing
            decided = spec.check_file(relative).include
            if decided is not None:
                return decided
        return False

    def ignored_or_inside_ignored(self, path: str, is_dir: bool) -> bool:
        """Is `path`, or a folder it lies in (up to the repository's top), ignored?"""
        top = self._top(os.path.dirname(path))
        if top is None:
            return False
        while path != top and _under(path, top):
            if self.ignored(path, is_dir):
                return True
            path, is_dir = os.path.dirname(path), True
        return False

    def _chain(self, folder: str) -> _Chain:
        chain = self._chains.get(folder)
        if chain is None:
            top = self._top(folder)
            if top is None:
                chain = ()
            else:
                self.looked_in.add(folder)
                own = self._spec(folder, os.path.join(folder, ".gitignore"))
                if folder == top:
                    outer = self._info_exclude(top)
                else:
                    outer = self._chain(os.path.dirname(folder))
                chain = ((own,) if own is not None else ()) + outer
            self._chains[folder] = chain
        return chain

    def _info_exclude(self, top: str) -> _Chain:
        git = os.path.join(top, ".git")
        if os.path.isfile(git):  # a submodule or a worktree: `gitdir: <where its data is>`
            try:
                line = read_source(git).decode("utf-8", "surrogateescape").partition("\n")[0].strip()
            except OSError:
                return ()
            if not line.startswith("gitdir:"):
                return ()
            git = os.path.join(top, line[len("gitdir:"):].strip())
        info = os.path.join(git, "info")
        # Where the file would appear: creating it changes that folder's listing.
        self.looked_in.update([info] if os.path.isdir(info) else [git] if os.path.isdir(git) else [])
        spec = self._spec(top, os.path.join(info, "exclude"))
        return ((spec,) if spec is not None else ())

    def _spec(self, base: str, ignore_file: str) -> tuple[str, GitIgnoreSpec, re.Pattern | None] | None:
        try:  # through read_source: a FIFO named .gitignore must not block the run either
            lines = read_source(ignore_file).decode("utf-8", "surrogateescape").splitlines()
        except OSError:
            return None  # none, or unreadable (git warns and goes on; so does the listing)
        self.read.append(ignore_file)
        # Imported only when there are rules to read: pathspec costs more to import (it brings
        # asyncio through typing_extensions) than a warm run takes.
        from pathspec import GitIgnoreSpec

        spec = GitIgnoreSpec.from_lines(lines)
        rules = [p for p in spec.patterns if p.include is not None]
        return (base, spec, _any_of(rules)) if rules else None

    def _top(self, folder: str) -> str | None:
        """The repository's top folder at or above `folder`, or None."""
        if folder not in self._tops:
            if os.path.exists(os.path.join(folder, ".git")):
                self._tops[folder] = folder
            else:
                parent = os.path.dirname(folder)
                self._tops[folder] = self._top(parent) if parent != folder else None
        return self._tops[folder]


_ANYWHERE = "^(?:.+/)?"  # how pathspec starts the regex of a rule with no slash: at any depth


def _any_of(rules: list) -> re.Pattern | None:
    """One regex that matches what any of `rules` matches: pathspec tries each rule's regex in
    turn, 30 times slower on a typical Python .gitignore than this for the paths no rule matches
    (most of them). Rules matching at any depth share their prefix, so the regex engine walks the
    path once. Group names are dropped (several rules use the same); None if the regexes are not
    what this expects, and each path is then asked of the rules one by one."""
    try:
        patterns = [rule.regex.pattern.replace("(?P<ps_d>", "(?:") for rule in rules]
        anywhere = [p[len(_ANYWHERE):] for p in patterns if p.startswith(_ANYWHERE)]
        rooted = [p for p in patterns if not p.startswith(_ANYWHERE)]
        branches = ([_ANYWHERE + "(?:" + "|".join(anywhere) + ")"] if anywhere else []) + rooted
        return re.compile("|".join(f"(?:{b})" for b in branches))
    except (AttributeError, TypeError, re.error):
        return None


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
