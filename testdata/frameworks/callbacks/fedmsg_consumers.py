# jobcheck-test: select=JC501
# fedmsg (moksha) consumers: the hub calls `consume` of every consumer class its entry points
# name, for each message on the topics it subscribes to.
import fedmsg.consumers
import requests


class BuildConsumer(fedmsg.consumers.FedmsgConsumer):
    topic = "org.fedoraproject.prod.buildsys.build.state.change"
    config_key = "builds.consumer"

    def consume(self, message):  # expect: JC501
        requests.post("https://builds.example/notify", json=message["body"])

    def validate(self, message):  # the hub's check before `consume`: no job
        return True


class Helper:
    def consume(self, message):  # a class of its own with a method of the same name: no consumer
        requests.post("https://elsewhere.example", json=message)
