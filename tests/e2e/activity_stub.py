"""A stand-in Activity for the playground's browser tests: a page that uses Discord's real
Embedded App SDK (activity/sdk/, installed by scripts/setup) as an Activity does, and the
little server behind it, run on its own thread.

The page: handshake and READY, AUTHORIZE for a code, the code traded at this server for
an access token (which asks the local Discord's ``POST /oauth2/token`` with the client
secret and checks the instance with the bot token), AUTHENTICATE, the participants and
their changes, ``setActivity``, and a WebSocket echo through Discord's proxy. It writes
what it learnt into ``#me``, ``#participants``, ``#socket`` and ``#log``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
from aiohttp import web

from localcord.activities import CLIENT_SECRET

SDK = Path(__file__).resolve().parents[2] / "activity" / "sdk"
BOT = {"Authorization": "Bot playground"}

PAGE = """<!doctype html>
<meta charset="utf-8">
<title>Stand-in Activity</title>
<style>body { background: #f2f3f5; color: #111; font: 16px sans-serif; margin: 16px; }</style>
<p>I am <b id="me">…</b>; here: <span id="participants"></span>;
socket: <span id="socket"></span></p>
<pre id="log"></pre>
<script type="module">
  import { DiscordSDK, Events } from "/sdk/index.mjs";
  const log = (line) => { document.querySelector("#log").textContent += line + "\\n"; };
  const show = (people) => {
    document.querySelector("#participants").textContent =
      people.map((p) => p.username).sort().join(", ");
  };
  try {
    const sdk = new DiscordSDK("CLIENT_ID", { disableConsoleLogOverride: true });
    await sdk.ready();
    log("ready " + sdk.instanceId + " " + sdk.channelId + " " + sdk.platform);
    const { code } = await sdk.commands.authorize({
      client_id: "CLIENT_ID", response_type: "code", state: "", prompt: "none",
      scope: ["identify", "rpc.activities.write"],
    });
    log("code");
    const traded = await fetch("/api/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: sdk.instanceId }),
    });
    const { access_token, users } = await traded.json();
    log("token for an instance of " + users.length);
    const auth = await sdk.commands.authenticate({ access_token });
    document.querySelector("#me").textContent = auth.user.username;
    const { locale } = await sdk.commands.userSettingsGetLocale();
    log("authenticated " + auth.scopes.join(" ") + " " + locale);
    show((await sdk.commands.getInstanceConnectedParticipants()).participants);
    await sdk.subscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, (e) => show(e.participants));
    await sdk.commands.setActivity({ activity: { type: 0, details: "Testing" } });
    log("activity set");
    const socket = new WebSocket(`ws://${location.host}/socket`);
    socket.onopen = () => socket.send("ping");
    socket.onmessage = (e) => { document.querySelector("#socket").textContent = e.data; };
  } catch (e) {
    log("failed: " + (e && (e.message || JSON.stringify(e))));
  }
</script>
"""


class StubActivity:
    """The Activity's server: its page, the SDK, ``POST /api/token`` and a socket."""

    def __init__(self) -> None:
        self.discord = ""  # the local Discord's address, once the playground printed it
        self.client_id = ""
        self.traded: list[str] = []  # the user id each traded token stands for
        self.app = web.Application()
        self.app.add_routes(
            [
                web.get("/", self.page),
                web.static("/sdk", SDK),
                web.post("/api/token", self.token),
                web.get("/socket", self.socket),
            ]
        )

    async def page(self, request: web.Request) -> web.Response:
        if not self.client_id:
            async with aiohttp.ClientSession() as http:
                me = f"{self.discord}/api/v10/oauth2/applications/@me"
                async with http.get(me, headers=BOT) as answer:
                    self.client_id = (await answer.json())["id"]
        page = PAGE.replace("CLIENT_ID", self.client_id)
        return web.Response(text=page, content_type="text/html")

    async def token(self, request: web.Request) -> web.Response:
        """What an Activity's server does with a code: trade it with the client secret,
        read the person from the token and the instance with the bot token."""
        body = await request.json()
        form = {
            "client_id": self.client_id,
            "client_secret": CLIENT_SECRET,
            "grant_type": "authorization_code",
            "code": body["code"],
        }
        async with aiohttp.ClientSession(base_url=self.discord) as http:
            async with http.post("/api/oauth2/token", data=form) as answer:
                token = await answer.json()
            bearer = {"Authorization": f"Bearer {token['access_token']}"}
            async with http.get("/api/v10/users/@me", headers=bearer) as answer:
                me = await answer.json()
            route = f"/api/v10/applications/{self.client_id}/activity-instances/"
            async with http.get(route + body["instance_id"], headers=BOT) as answer:
                instance = await answer.json()
        assert me["id"] in instance["users"], (me, instance)
        self.traded.append(me["id"])
        said = {"access_token": token["access_token"], "users": instance["users"]}
        return web.json_response(said)

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            await ws.send_str("pong: " + message.data)
        return ws


@contextmanager
def stub_activity() -> Iterator[tuple[StubActivity, str]]:
    """The stand-in Activity served on a thread of its own: it and its address."""
    stub = StubActivity()
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(stub.app, access_log=None, handle_signals=False)
    loop.run_until_complete(runner.setup())
    loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", 0).start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield stub, f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
