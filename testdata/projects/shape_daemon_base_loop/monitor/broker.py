import requests

from monitor.daemon import Daemon


class Broker(Daemon):  # expect: JC501
    def do_loop_turn(self):
        requests.post("https://metrics.example/push", json={"daemon": self.name})


def main():
    Broker("broker").do_main_loop()
