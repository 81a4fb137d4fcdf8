import requests


def flush_outbox():
    requests.post("https://mail.example/outbox/flush", timeout=10)
