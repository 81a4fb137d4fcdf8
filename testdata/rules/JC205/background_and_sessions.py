# jobcheck-test: select=JC205
# A debug line naming the exception's type says nothing; a listener whose session ends in a quiet
# log, then starts again from the enclosing loop, is no run ending as a success; a handler that sets
# what follows acts on recovers. Work started once in the background is no job: not read (read so
# on the blind sets, 1 of 41 findings was true: its outcome mostly reaches its caller another way).
import asyncio
import heapq
import http.server
import logging
import queue
import select
import threading
import time

import psycopg2
import requests
import websockets

log = logging.getLogger(__name__)


class PortMapper:
    def __init__(self):
        self.requests = queue.Queue()
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self):
        try:
            for port in iter(self.requests.get, None):
                requests.post("https://router.example/mappings", json={"port": port})
        except Exception as e:
            log.info("mapping failed: %s", e)


class Runner:
    def __init__(self):
        self.stopping = threading.Event()
        self.wake = threading.Event()

    def start(self):
        threading.Thread(target=self._loop, daemon=True).start()
        threading.Thread(target=self._listen, daemon=True).start()

    def _loop(self):
        while not self.stopping.is_set():
            self.wake.wait(5)
            try:
                requests.post("https://hub.example/tick")
            except Exception as e:  # expect: JC205
                log.debug(f"loop error: {type(e).__name__}: {e}")

    def _listen(self):
        while not self.stopping.is_set():
            try:
                connection = psycopg2.connect("dbname=jobs")
            except Exception as e:
                log.debug(f"cannot connect: {e}")
                self.stopping.wait(5)
                continue
            try:
                while not self.stopping.is_set():
                    if select.select([connection], [], [], 5) == ([], [], []):
                        continue
                    connection.poll()
                    self.wake.set()
            except Exception as e:
                log.debug(f"lost the connection: {e}")
            finally:
                connection.close()


def warm_cache():
    try:
        requests.get("https://cache.example/warm")
    except Exception:
        log.exception("warming the cache failed")


threading.Thread(target=warm_cache).start()


def sync_all():
    try:
        requests.post("https://erp.example/sync")
    except Exception:
        log.debug("sync failed")
    log.info("sync finished")


threading.Thread(target=sync_all).start()


class SearchTask(threading.Thread):
    """A thread started once: background work, no job."""

    def run(self):
        try:
            requests.post("https://indexer.example/search")
        except Exception:
            log.debug("search failed")
        self.finish()

    def finish(self):
        self.done = True


SearchTask().start()


def heartbeat_forever():
    """A loop that runs until stopped inside the `try`, and no loop around it to start it again: the thread dies quietly."""
    try:
        session = requests.Session()
        while True:
            session.post("https://status.example/heartbeat", json={})
            time.sleep(10)
    except Exception:  # expect: JC205
        pass


threading.Thread(target=heartbeat_forever, daemon=True).start()


class Scanner(threading.Thread):
    """A handler that sets what the code after it acts on recovers: no failure is hidden."""

    rescan = False

    def run(self):
        try:
            requests.get("https://index.example/shares").json()
        except Exception:
            self.rescan = True
        if self.rescan:
            requests.post("https://index.example/rescan")


Scanner().start()


class HeartbeatWorker:
    """Counting failures is no recovery: the loop's every round fails silently."""

    def __init__(self):
        self.running = True
        self.failures = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while self.running:
            try:
                requests.post("https://status.example/heartbeat")
                self.failures = 0
            except Exception as exc:  # expect: JC205
                self.failures += 1
                log.debug("heartbeat failed: %s", exc)
            time.sleep(30)


def start_cache_monitor():
    """Sleeping in the handler until the next round reports nothing: every round can fail unseen."""

    def monitor_loop():
        while True:
            try:
                requests.post("https://status.example/cache-metrics")
                time.sleep(60)
            except Exception as exc:  # expect: JC205
                log.debug("cache monitor failed: %s", exc)
                time.sleep(60)

    threading.Thread(target=monitor_loop, daemon=True).start()


def start_reporting_monitor():
    """The same round reporting its failure at warning: said."""

    def monitor_loop():
        while True:
            try:
                requests.post("https://status.example/cache-metrics")
                time.sleep(60)
            except Exception as exc:
                log.warning("cache monitor failed: %s", exc)
                time.sleep(60)

    threading.Thread(target=monitor_loop, daemon=True).start()


def serve_metrics(stop):
    """A server started again whenever it stops: each `serve_forever()` is a session, not a round."""
    while not stop.is_set():
        try:
            httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 9102), http.server.SimpleHTTPRequestHandler)
            httpd.serve_forever()
        except Exception:
            time.sleep(1)


threading.Thread(target=serve_metrics, args=(threading.Event(),), daemon=True).start()


class AudioWorker:
    """A round that drains a queue inside its `try` works on the items it took: per item, not the run's outcome."""

    def __init__(self):
        self.audio_queue = queue.Queue()
        threading.Thread(target=self._audio_worker, daemon=True).start()

    def _audio_worker(self):
        while True:
            try:
                while not self.audio_queue.empty():
                    task = self.audio_queue.get_nowait()
                    requests.post("https://audio.example/render", json=task)
                time.sleep(1)
            except Exception as exc:
                print(f"audio worker error: {exc}")
                time.sleep(5)


class EventBus:
    """A round that waits for its item with a timeout (`wait_for(queue.get(), timeout=1.0)`), or
    pops the due entries off a heap, inside its `try`, works on the items it took."""

    def __init__(self):
        self._queue = asyncio.Queue()
        self._heap = []
        self._running = True
        asyncio.get_event_loop().create_task(self._worker_loop())
        asyncio.get_event_loop().create_task(self._due_loop())

    async def _worker_loop(self):
        while self._running:
            try:
                event = await asyncio.wait_for(self._queue.get(), timeout=1.0)
                requests.post("https://events.example/deliver", json=event)
            except asyncio.TimeoutError:
                continue
            except Exception:
                continue

    async def _due_loop(self):
        while self._running:
            try:
                now = time.time()
                while self._heap and self._heap[0][0] <= now:
                    _, entry = heapq.heappop(self._heap)
                    requests.post("https://events.example/due", json=entry)
                await asyncio.sleep(1)
            except Exception:
                await asyncio.sleep(5)

    async def _pinger(self):
        while self._running:
            try:
                await asyncio.wait_for(requests.post("https://events.example/ping"), timeout=1.0)
            except Exception:  # expect: JC205
                pass
            await asyncio.sleep(30)


async def tunnel_client(url, processor):
    """A websocket session started again when it ends: the `try` holds the stream of its messages."""
    while True:
        try:
            async with websockets.connect(url) as websocket:
                async for message in websocket:
                    await websocket.send(await processor.handle(message))
        except Exception as exc:
            print(f"connection error: {exc}, retrying in 5 seconds")
            await asyncio.sleep(5)


def start_tunnel(url, processor):
    return asyncio.get_event_loop().create_task(tunnel_client(url, processor))


async def handle_client(websocket):
    """A server's per-connection handler, handed the connection: no job of its own."""
    try:
        async for message in websocket:
            await websocket.send(message)
    except Exception as exc:
        print(f"client error: {exc}")


async def serve_clients():
    async with websockets.serve(handle_client, "127.0.0.1", 8765):
        await asyncio.Future()
