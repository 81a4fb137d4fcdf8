class Mailer:
    def deliver(self, to, body):
        raise NotImplementedError


def gateway_stub():
    pass
