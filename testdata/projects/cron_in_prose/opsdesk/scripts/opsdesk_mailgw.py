# jobcheck-test: select=JC501
# No packaging file names `opsdesk-mailgw` (a build script makes it): the crontab line in the docs
# runs the `main` of the one module named so.
import requests


def main(argv=None):  # expect: JC501
    requests.post("https://desk.example/tickets/import", json={"source": "imap"})


def run():
    main()
