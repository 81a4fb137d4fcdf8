# jobcheck-test: select=JC501
# oslo.service ThreadGroup timers: on the thread group a service's library base makes (`self.tg`)
# or one made here; `add_dynamic_timer` takes the callback first. The application's own
# `add_timer` is read by what it does, not by its name.
from oslo_service import service, threadgroup


class Service(service.Service):
    def start(self):
        self.tg.add_timer(60, self.report_state, 5)
        self.tg.add_dynamic_timer(self.periodic_tasks, initial_delay=5, periodic_interval_max=300)
        group = threadgroup.ThreadGroup()
        group.add_timer_args(30, self.sync_quotas, args=[self.context])
        Registry().add_timer(10, self.describe)
        self.wheel.add_timer(5, self.on_timeout)  # an untyped object's, not oslo.service's

    def report_state(self):  # expect: JC501
        self.db.service_update(self.service_id, {"report_count": self.report_count + 1})

    def periodic_tasks(self):  # expect: JC501
        return self.manager.run_periodic_tasks(self.context)

    def sync_quotas(self, context):  # expect: JC501
        self.db.quota_sync(context)

    def describe(self):
        return "service"

    def on_timeout(self):
        self.db.cancel(self.service_id)


class Registry:
    def add_timer(self, interval, callback):
        self.timers = [(interval, callback)]
