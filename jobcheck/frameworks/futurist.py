"""futurist periodics: a function decorated `@periodics.periodic(spacing=60)` (or
`periodic(60)`) and handed to a `PeriodicWorker` runs every `spacing` seconds; OpenStack services
define them in a service's `__init__` and add them to the worker there. The worker never retries a
callback that raises (the next run is the next tick) and does not start a callback again while it
runs, but every process that runs the worker runs it.
"""

from __future__ import annotations

from .base import PeriodicDecorators

class Futurist(PeriodicDecorators):
    pass


FRAMEWORK = Futurist("futurist", ("futurist.periodics.periodic",), "spacing", positional=True)
