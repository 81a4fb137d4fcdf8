# jobcheck-test: select=JC501
# Slack's Socket Mode client calls each request listener for every event it receives.
from slack_sdk.socket_mode.aiohttp import SocketModeClient


async def main(token):
    client = SocketModeClient(app_token=token)

    async def process(client, req):  # expect: JC501
        await client.send_socket_mode_response(req.envelope_id)

    async def unused(client, req):
        pass

    client.socket_mode_request_listeners.append(process)
    handlers = []
    handlers.append(unused)  # another list: no listener
    await client.connect()
