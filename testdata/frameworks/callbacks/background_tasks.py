# jobcheck-test: select=JC501
# FastAPI / Starlette background tasks: the function handed to `BackgroundTasks.add_task` (the
# parameter's annotation says what it is) or to `BackgroundTask(...)` runs after the response.
import requests
from fastapi import BackgroundTasks, FastAPI
from starlette.background import BackgroundTask
from starlette.responses import JSONResponse

app = FastAPI()


def send_welcome(email):  # expect: JC501
    requests.post("https://mail.example/send", json={"to": email})


def audit(event):  # expect: JC501
    requests.post("https://audit.example/events", json=event)


def render(email):
    return {"email": email}


@app.post("/signup")
async def signup(email: str, background_tasks: BackgroundTasks):
    background_tasks.add_task(send_welcome, email)
    return render(email)


@app.post("/events")
async def events(event: dict):
    return JSONResponse({"ok": True}, background=BackgroundTask(audit, event))


class Tasks:
    """A class of the application with an `add_task` method of its own: not Starlette's."""

    def __init__(self):
        self.pending = []

    def add_task(self, func, *args):
        self.pending.append((func, args))


def collect(email):
    Tasks().add_task(render, email)
