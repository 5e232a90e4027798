"""The playground: the real bot on a local Discord, played from a web page, no token.

    bash scripts/run    # (python -m launcher) with no DISCORD_TOKEN; prints http://127.0.0.1:8765/

The page (``static/``) looks like a Discord channel: the bot's slash commands with
autocomplete, messages and board images as they arrive, clickable buttons, and a switch
to act as Pilot 1 … 4 or a spectator; ephemeral answers show only to whoever they are
for. Its small JSON API lives under ``/play/``; the bot runs in the same event loop,
pointed at this server by ``DISCORD_API_BASE`` as in the end-to-end tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from localcord.client import LocalcordError, People
from localcord.server import LocalDiscord
from localcord.state import LOADING, PUBLIC_THREAD, Channel, Json, Message, User, as_json

STATIC = Path(__file__).with_name("static")
DEFAULT_PORT = 8765
POLL_SECONDS = 20.0
PILOTS = ("Pilot 1", "Pilot 2", "Pilot 3", "Pilot 4")


class Playground:
    def __init__(self, server: LocalDiscord) -> None:
        self.server = server
        self.world = server.world
        self.people = People(server, timeout=60.0)
        self.pilots = [self.people.join(name) for name in PILOTS]
        self.spectator = self.people.join("Spectator")
        self.channel = self.world.add_channel("dogfights")
        self.closing = False
        server.app.on_shutdown.append(self._wake_pollers)
        server.app.add_routes(
            [
                web.get("/", self.index),
                web.static("/static", STATIC),
                web.get("/play/state", self.state),
                web.post("/play/command", self.command),
                web.post("/play/autocomplete", self.autocomplete),
                web.post("/play/click", self.click),
            ]
        )

    async def _wake_pollers(self, app: web.Application) -> None:
        """Answer the pages' pending polls now, or stopping would wait them out."""
        self.closing = True
        self.world.touch(None)

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    # ------------------------------------------------------------ reading

    async def state(self, request: web.Request) -> web.Response:
        """Everything the page shows, once something changed after ``since``
        (a long poll, so the page hears of new messages at once)."""
        since = int(request.query.get("since", "-1"))
        deadline = time.monotonic() + POLL_SECONDS
        while self.world.version <= since and time.monotonic() < deadline and not self.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.world.changed().wait(), deadline - time.monotonic())
        viewer = self._user(request.query.get("viewer"))
        channel = self.world.channels.get(int(request.query.get("channel") or self.channel.id))
        channel = channel or self.channel
        return as_json(
            {
                "version": self.world.version,
                "viewer": str(viewer.id),
                "channel": str(channel.id),
                "people": [_person(u) for u in (*self.pilots, self.spectator, self.world.bot)],
                "channels": [
                    {
                        "id": str(c.id),
                        "name": c.name,
                        "thread": c.type == PUBLIC_THREAD,
                    }
                    for c in self.world.channels.values()
                ],
                "commands": self._commands(),
                "messages": [
                    self._message(m, viewer) for m in self.world.history(channel, viewer.id)
                ][-80:],
            }
        )

    def _commands(self) -> list[Json]:
        """Every slash command as its full name and its options, e.g. "crosshairs move"."""
        found: list[Json] = []

        def walk(prefix: str, spec: Json) -> None:
            options = spec.get("options", [])
            subs = [o for o in options if o["type"] in (1, 2)]
            if not subs:
                found.append(
                    {
                        "name": prefix,
                        "description": spec.get("description", ""),
                        "options": options,
                    }
                )
            for sub in subs:
                walk(f"{prefix} {sub['name']}", sub)

        for command in self.world.commands:
            walk(command["name"], command)
        return found

    def _message(self, message: Message, viewer: User) -> Json:
        return {
            "id": str(message.id),
            "author": message.author.name,
            "bot": message.author.bot,
            "html": self._html(message.content),
            "thinking": bool(message.flags & LOADING),
            "ephemeral": message.ephemeral,
            "edited": message.edited is not None,
            "images": [
                self.server.base_url + a.path
                for a in message.attachments
                if a.filename.endswith((".png", ".gif", ".jpg"))
            ],
            "rows": [
                [
                    {
                        "label": b.get("label") or "",
                        "emoji": (b.get("emoji") or {}).get("name", ""),
                        "custom_id": b.get("custom_id", ""),
                        "style": b.get("style", 2),
                        "disabled": bool(b.get("disabled")),
                    }
                    for b in row.get("components", [])
                    if b.get("type") == 2
                ]
                for row in message.components
            ],
        }

    def _html(self, text: str) -> str:
        """Discord's markdown, the little the bot uses: mentions, bold, code."""
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

        def user(m: re.Match[str]) -> str:
            found = self.world.users.get(int(m[1]))
            return f'<span class="mention">@{found.name if found else "someone"}</span>'

        def channel(m: re.Match[str]) -> str:
            found = self.world.channels.get(int(m[1]))
            name = found.name if found else "unknown"
            return f'<a class="channel-link" href="#" data-channel="{m[1]}">#{name}</a>'

        text = re.sub(r"&lt;@!?(\d+)&gt;", user, text)
        text = re.sub(r"&lt;#(\d+)&gt;", channel, text)
        text = re.sub(r"&lt;t:(\d+):R&gt;", lambda m: _relative(int(m[1])), text)
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)

    # ------------------------------------------------------------ acting

    async def command(self, request: web.Request) -> web.Response:
        body = await request.json()
        viewer, channel = self._user(body.get("viewer")), self._channel(body.get("channel"))
        options = self._options(str(body["command"]), body.get("options") or {})
        return await self._act(self.people.slash(viewer, channel, body["command"], **options))

    async def autocomplete(self, request: web.Request) -> web.Response:
        body = await request.json()
        viewer, channel = self._user(body.get("viewer")), self._channel(body.get("channel"))
        options = self._options(str(body["command"]), body.get("options") or {})
        try:
            choices = await self.people.autocomplete(
                viewer, channel, body["command"], str(body["focus"]), **options
            )
        except LocalcordError as exc:
            return as_json({"error": str(exc)}, status=400)
        return as_json({"choices": choices})

    async def click(self, request: web.Request) -> web.Response:
        body = await request.json()
        viewer = self._user(body.get("viewer"))
        message = self.world.messages.get(int(body["message"]))
        if message is None or not message.visible(viewer.id):
            return as_json({"error": "no such message"}, status=404)
        return await self._act(self.people.click(viewer, message, str(body["custom_id"])))

    async def _act(self, action: Any) -> web.Response:
        try:
            await action
        except LocalcordError as exc:
            return as_json({"error": str(exc)}, status=400)
        return as_json({"ok": True})

    def _options(self, command: str, given: dict[str, Any]) -> dict[str, Any]:
        """The page's option values, typed as the command declares them."""
        spec = next((c for c in self._commands() if c["name"] == command), None)
        if spec is None:
            raise web.HTTPBadRequest(text=f"no command /{command}")
        kinds = {o["name"]: o["type"] for o in spec["options"]}
        options: dict[str, Any] = {}
        for name, value in given.items():
            if value in ("", None) or name not in kinds:
                continue
            if kinds[name] == 6:
                options[name] = self._user(value)
            elif kinds[name] == 5:
                options[name] = value in (True, "true", "True", "1")
            else:
                options[name] = value
        return options

    def _user(self, value: object) -> User:
        found = self.world.users.get(int(str(value))) if str(value).isdigit() else None
        return found or self.spectator

    def _channel(self, value: object) -> Channel:
        found = self.world.channels.get(int(str(value))) if str(value).isdigit() else None
        return found or self.channel


def _person(user: User) -> Json:
    return {"id": str(user.id), "name": user.name, "bot": user.bot}


def _relative(at: int) -> str:
    minutes = max(0, round((at - time.time()) / 60))
    return f"in {minutes} min"


# ---------------------------------------------------------------- running it


async def serve(port: int = DEFAULT_PORT, database: Path | None = None) -> None:
    """Run the local Discord, the page and the real bot until cancelled."""
    from bot.app import create_bot
    from bot.config import Config

    server = LocalDiscord()
    Playground(server)
    try:
        await server.start(port)
    except OSError:
        await server.start(0)  # the usual port is taken: any free one will do
    with tempfile.TemporaryDirectory(prefix="crosshairs-playground-") as scratch:
        config = Config(
            token="playground",
            database_path=database or Path(scratch) / "playground.db",
            computer_pace=0.6,
            api_base=server.api_base,
        )
        bot = create_bot(config)
        main = asyncio.current_task()
        assert main is not None
        loop = asyncio.get_running_loop()
        # Handled here rather than left to asyncio.run, which leaves SIGINT alone when
        # the process was started with it ignored (from a script, in the background).
        for stop in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(stop, main.cancel)
        try:
            await bot.login("playground")
            print(
                f"Playground: open {server.base_url}/ in your browser (Ctrl-C stops it).",
                flush=True,
            )
            await bot.connect()
        except asyncio.CancelledError:
            print("Playground stopped.", flush=True)
        finally:
            await bot.close()
            await server.stop()


def run(port: int = DEFAULT_PORT) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(serve(port))
    return 0
