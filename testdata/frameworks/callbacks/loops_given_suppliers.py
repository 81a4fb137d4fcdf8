# jobcheck-test: select=JC501
# A loop given callables that supply its work with values (a connection factory, a source of the
# kinds it claims) is the job itself, not a runner of what its callers pass: what a supplier makes
# is handed to the loop's work (through a store helper, or through what is made of it), or the
# supplier is named for making things.
import asyncio

import requests


def run_db(conn_factory, fn, *args):
    """Runs one store call with a connection of its own: the factory makes what the call uses."""
    def call():
        own = conn_factory()
        return fn(own, *args)
    return call()


def mark_running(conn, job):
    conn.execute("UPDATE jobs SET state = 'running' WHERE id = %s", (job,))


def note_progress(conn_factory, job):
    own = conn_factory()
    if own is not None:
        own.progress(job)


def claim_next(kinds):
    return requests.post("https://jobs.example/claim", json={"kinds": kinds}).json()


def allowed(kinds):
    return sorted(set(kinds))


async def pipeline_loop(conn_factory, kinds_fn):  # expect: JC501
    """Given a connection factory and a source of kinds: callables that supply its work with
    values (what the factory makes is handed to a store call, the factory is named so, the kinds
    are handed to the claim through `allowed`), not the work it runs."""
    while True:
        job = claim_next(allowed(kinds_fn()))
        if job is None:
            await asyncio.sleep(5)
            continue
        run_db(conn_factory, mark_running, job)
        note_progress(conn_factory, job)
        requests.post("https://jobs.example/run", json={"job": job})


def connect():
    import sqlite3
    return sqlite3.connect("jobs.db", timeout=30)


def long_kinds():
    return ["export"]


def start_pipeline():
    asyncio.create_task(pipeline_loop(connect, kinds_fn=long_kinds))
