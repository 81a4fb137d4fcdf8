import requests


def rebuild_all():
    requests.post("https://search.example/rebuild")


rebuild_all()
