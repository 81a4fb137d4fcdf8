"""A step run in a thread each round (`await asyncio.to_thread(remove_orphans)`), named by what
the package re-exports: it is the function the package's module defines."""

import asyncio

import requests

from scand.cleanup import remove_orphans


async def worker_loop():  # expect: JC501
    while True:
        await asyncio.to_thread(remove_orphans)
        requests.post("https://scans.example/claim", timeout=10)
        await asyncio.sleep(30)


def main():
    asyncio.run(worker_loop())


if __name__ == "__main__":
    main()
