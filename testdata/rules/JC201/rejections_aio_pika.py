# jobcheck-test: select=JC201
# aio-pika's publisher confirms (aiormq's exceptions): a nacked (DeliveryError) or returned
# (PublishError) message was not taken, so publishing it again repeats nothing. A retry after a
# lost connection may repeat a publish that landed, unless the handler first hands the failure to a
# check named for raising (`_raise_if_sent(exc)`), which raises when the frame may have gone out.
import asyncio

import aio_pika
from aio_pika.exceptions import DeliveryError, PublishError
from aio_pika.exceptions import AMQPConnectionError


def _raise_if_sent(exc):
    if getattr(exc, "sent", False):
        raise RuntimeError("publish is indeterminate") from exc


async def publish_nacked(channel: aio_pika.abc.AbstractChannel, body: bytes):
    for attempt in range(5):
        try:
            await channel.default_exchange.publish(aio_pika.Message(body), routing_key="jobs")
            return
        except (DeliveryError, PublishError):
            await asyncio.sleep(0.05 * 2 ** attempt)


async def publish_checked(channel: aio_pika.abc.AbstractChannel, body: bytes):
    for attempt in range(5):
        try:
            await channel.default_exchange.publish(aio_pika.Message(body), routing_key="jobs")
            return
        except AMQPConnectionError as exc:
            _raise_if_sent(exc)
            await asyncio.sleep(0.05 * 2 ** attempt)


async def publish_blind(channel: aio_pika.abc.AbstractChannel, body: bytes):
    for attempt in range(5):
        try:
            await channel.default_exchange.publish(aio_pika.Message(body), routing_key="jobs")  # expect: JC201
            return
        except AMQPConnectionError:
            await asyncio.sleep(0.05 * 2 ** attempt)


async def main():
    connection = await aio_pika.connect_robust("amqp://localhost/")
    channel = await connection.channel(publisher_confirms=True)
    await publish_nacked(channel, b"{}")
    await publish_checked(channel, b"{}")
    await publish_blind(channel, b"{}")
