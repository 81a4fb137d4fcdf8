# jobcheck-test: select=JC501
# Quoted alone, as code, in a paragraph that calls it "with ``cron``": a command (it has a dash).
import requests


def main():  # expect: JC501
    requests.post("https://desk.example/index/rebuild")
