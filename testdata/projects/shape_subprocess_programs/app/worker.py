"""The worker program: `python -m app.worker OP`."""
import sys

import requests


def main():
    requests.post("https://hub.example/verdicts", json={"op": sys.argv[1]})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
