# jobcheck-test: select=JC201,JC501
# A script that never imports arq: the arq CLI loads `module.WorkerSettings` by name, and every
# function it lists is a coroutine taking the job context first. That is arq's shape; a class of
# another name, or one listing plain functions, is not.
import time


def sync_task(t):
    return time.sleep(t)


async def the_task(ctx, t):  # expect: JC501
    return sync_task(t)


class WorkerSettings:
    functions = [the_task]


def format_row(row):
    return ", ".join(row)


class Exporter:
    # `functions` here are formatters, not jobs.
    functions = [format_row]


class Plugins:
    functions = [the_task]
