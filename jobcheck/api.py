"""The library interface shared by the command line, the language server and the tests.

    report = check_paths(["src/"], config)      # files on disk
    report = check_sources({"a.py": text}, ...)  # text from an editor or a test

Both run the same two phases (`engine.pipeline`): summarise each file, then link the project
and run the selected checks.
"""

from __future__ import annotations

from .engine.pipeline import Report, Selection, analyse, check_paths, check_sources

__all__ = ["Report", "Selection", "analyse", "check_paths", "check_sources"]
