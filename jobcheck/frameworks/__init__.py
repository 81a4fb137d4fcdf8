"""One module per framework, found by discovery: each finds its entry points and reads its retry
settings.

A framework module defines `FRAMEWORK`, an object with `name`, `find_jobs(project) -> [JobSite]`
and `find_registrations(project) -> [Registration]`; it may have
`find_retry_wrappers(project) -> {qualname: RetryPolicy}` for retry decorators that apply to any
function, and `reads_decorator(name) -> bool` to be given the decorators it reads
(`decorated_functions`). Frameworks recognise resolved names (`celery.Celery().task`), never
spellings alone. A module without `FRAMEWORK` is a helper (`base`, `durations`, `instances`) or configured
(`custom`, from `[tool.jobcheck.entry-points]`). See CONTRIBUTING.md.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache


@lru_cache(maxsize=1)
def discovered() -> tuple:
    """Every framework of this package, in module name order."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        framework = getattr(importlib.import_module(f"{__name__}.{info.name}"), "FRAMEWORK", None)
        if framework is not None:
            found.append(framework)
    return tuple(found)


def all_frameworks(config=None) -> list:
    """The frameworks a run uses: every discovered one (or those `frameworks = [...]` names, and
    retry decorators always), and the configured entry points."""
    from ..config import ConfigError
    from .custom import Custom

    frameworks = list(discovered())
    known = sorted({f.name for f in frameworks} | {"custom"})
    unknown = [name for name in (config.frameworks if config is not None else None) or () if name not in known]
    if unknown:
        where = config.path or "configuration"
        raise ConfigError(f"{where}: `tool.jobcheck.frameworks` has unknown framework {unknown[0]!r} (known: {', '.join(known)})")
    if config is not None and config.frameworks:
        frameworks = [f for f in frameworks if f.name in config.frameworks or f.name == "retry"]
    if config is not None and config.entry_points:
        frameworks.append(Custom(config.entry_points))
    return frameworks
