# jobcheck-test: select=JC501
import requests


def main():  # expect: JC501
    requests.delete("https://files.example/attachments?older_than=30d")


if __name__ == "__main__":
    main()
