# jobcheck-test: select=JC501
# A paragraph about cron quotes `opsdesk-prune` in the code block after it; `opsdesk-serve` is
# quoted in a paragraph that says nothing of cron.
import requests


def main():  # expect: JC501
    requests.delete("https://desk.example/tickets", params={"older_than": "30d"})


def serve():
    print("serving")
