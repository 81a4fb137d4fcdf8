# jobcheck-test: select=JC201
"""A task hands parts of its work to a thread pool and waits for them (`submit` then `as_completed`
or `.result()`, a pool's `map`, `multiprocessing`'s `imap_unordered`): each is a unit of the
task's work (kind `dispatched`, with the task's framework). Work a task starts and does not wait
for is started in the background; a pool a request handler uses is no job's."""
import asyncio
import multiprocessing
from concurrent.futures import ThreadPoolExecutor, as_completed

import requests
from celery import shared_task

POOL = ThreadPoolExecutor(max_workers=4)


def upload(part):
    requests.put(f"https://store.example/parts/{part}", data=b"...")


def checksum(path):
    with open(path, "rb") as f:
        return hash(f.read())


def notify_later(batch):
    requests.post("https://hooks.example/done", json={"batch": batch})


def render(page):
    return f"<p>{page}</p>"


def thumbnail(path):
    requests.post("https://images.example/thumbnails", json={"path": path})


def reindex_shard(shard):
    requests.put(f"https://search.example/shards/{shard}")


@shared_task
def publish(paths, shards):
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(thumbnail, paths))
    with multiprocessing.Pool(4) as procs:
        for _ in procs.imap_unordered(reindex_shard, shards):
            pass
    return [len(word) for word in map(str, paths)]


def _upload_all(parts):
    futures = [POOL.submit(upload, part) for part in parts]
    for future in as_completed(futures):
        future.result()


@shared_task
def mirror(batch, parts, path):
    _upload_all(parts)
    total = POOL.submit(checksum, path).result()
    POOL.submit(notify_later, batch)
    return total


async def page_view(request):
    return await asyncio.get_running_loop().run_in_executor(None, render, request.page)
