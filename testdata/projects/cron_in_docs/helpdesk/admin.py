import requests


def main():
    requests.post("https://helpdesk.example/admin")


def gui():
    requests.post("https://helpdesk.example/gui")
