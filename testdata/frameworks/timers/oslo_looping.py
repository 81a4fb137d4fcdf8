# jobcheck-test: select=JC501
# oslo.service looping calls: a callback run at a fixed interval is a periodic job; one that ends
# its looping call once something is ready (`raise LoopingCallDone`) is a wait inside another job.
from oslo_service import loopingcall


class Service:
    def start(self):
        self.heartbeat = loopingcall.FixedIntervalLoopingCall(self._report_state)
        self.heartbeat.start(interval=30)
        loopingcall.DynamicLoopingCall(self._sync_power_states).start()
        loopingcall.FixedIntervalLoopingCall(f=self._refresh_quotas).start(interval=60)

    def _report_state(self):  # expect: JC501
        self.db.update_service_heartbeat()

    def _sync_power_states(self):  # expect: JC501
        self.db.sync()
        return 60

    def _refresh_quotas(self):  # expect: JC501
        self.db.refresh()

    def wait_for_active(self, server):
        def _poll():
            if self.nova.get(server).status == "ACTIVE":
                raise loopingcall.LoopingCallDone()

        loopingcall.FixedIntervalLoopingCall(_poll).start(interval=2).wait()
