# jobcheck-test: select=JC501
# Decorators that make a function run repeatedly or in the background: discord.py's
# `tasks.loop`, uWSGI's timers and spooler, aiocron, django-background-tasks.
import aiocron
import requests
from background_task import background
from discord.ext import commands, tasks
from uwsgidecorators import spool, timer


class Feeds(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.refresh.start()

    @tasks.loop(minutes=5)
    async def refresh(self):  # expect: JC501
        requests.post("https://feeds.example/refresh")

    @commands.command()
    async def ping(self, ctx):
        await ctx.send("pong")


@timer(30)
def heartbeat(signum):  # expect: JC501
    requests.post("https://status.example/heartbeat")


@spool
def convert(arguments):  # expect: JC501
    requests.post("https://convert.example/jobs", json=arguments)


@aiocron.crontab("0 * * * *")
async def hourly_report():  # expect: JC501
    requests.post("https://reports.example/hourly")


@background(schedule=60)
def notify_user(user_id):  # expect: JC501
    requests.post("https://push.example/notify", json={"user": user_id})


def loop(minutes):
    """The application's own `loop`: not discord's."""
    return lambda fn: fn


@loop(minutes=5)
def not_a_job():
    requests.post("https://example.com")
