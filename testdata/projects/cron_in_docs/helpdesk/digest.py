# jobcheck-test: select=JC501
import requests


def main():  # expect: JC501
    requests.post("https://mail.example/digest")
