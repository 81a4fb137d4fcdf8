# jobcheck-test: select=JC501
# A test that applies a task decorator to an application function runs it there: no job.
from huey import MemoryHuey

from jobs.render import render


def test_render_as_task():
    huey = MemoryHuey(immediate=True)
    assert huey.task()(render)("x") is not None
