"""The rules, one module per rule (or per tightly shared analysis), found by discovery.

Each rule module has `CODES` (the rules it can report) and `run(ctx)` yielding findings; a module
without `CODES` is a helper. Checks read the linked project (`ctx.project`, see `context`), never
files: every file was parsed once, by the summary pass.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache


@lru_cache(maxsize=1)
def all_checks() -> tuple:
    """Every rule module of this package, in name order."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "CODES") and hasattr(module, "run"):
            found.append(module)
    return tuple(found)
