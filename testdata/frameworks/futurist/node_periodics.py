# jobcheck-test: select=JC501
# A decorator factory of the application's own whose wrapper is decorated with another factory of
# its own that hands what it decorates to futurist (ironic's `node_periodic` over `periodic`): the
# decorated methods are periodic jobs, two factories down.
import functools

from futurist import periodics


def periodic(spacing, enabled=True, **kwargs):
    return periodics.periodic(spacing=spacing, enabled=enabled, **kwargs)


def node_periodic(purpose, spacing, filters=None):
    def decorator(func):
        @periodic(spacing=spacing)
        @functools.wraps(func)
        def wrapper(self, context):
            for node in self.iter_nodes(filters=filters):
                func(self, node, context)

        return wrapper

    return decorator


def timed(name):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    return decorator


class ConductorManager:
    @node_periodic(purpose="power state sync", spacing=60)
    def _sync_power_states(self, task, context):  # expect: JC501
        task.driver.power.sync(task)

    @timed("recovery")
    def _recover(self, task):
        """A factory whose wrapper carries no decorator: nothing schedules it."""
