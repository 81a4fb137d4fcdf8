import asyncio
from contextlib import asynccontextmanager

from fastapi import FastAPI

from service.background import refresh_rates_forever, report_usage_forever, try_reconnect_loop, try_watch, warm_up


@asynccontextmanager
async def lifespan(app):
    await warm_up()
    tasks = [asyncio.create_task(refresh_rates_forever()), asyncio.create_task(try_reconnect_loop()),
             asyncio.create_task(try_watch())]
    yield
    for task in tasks:
        task.cancel()


app = FastAPI(lifespan=lifespan)


@app.on_event("startup")
async def start_usage_reports():
    asyncio.get_running_loop().create_task(report_usage_forever(interval=30))
