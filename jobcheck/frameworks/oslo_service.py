"""oslo.service periodic tasks: a method decorated `@periodic_task.periodic_task` (or with
`spacing=`, `run_immediately=`) on a `PeriodicTasks` manager runs on every tick of the service's
timer (`spacing` seconds, or every tick when none is given). The manager runs its periodic tasks
one after another and catches what they raise (logged, the next tick runs them again): nothing
retries one, and every process of the service runs them all.
"""

from __future__ import annotations

from .base import PeriodicDecorators

class OsloService(PeriodicDecorators):
    pass


FRAMEWORK = OsloService("oslo_service", ("oslo_service.periodic_task.periodic_task",), "spacing")
