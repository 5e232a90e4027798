"""The playground: the real bot on a local Discord, played from a web page, no token.

    bash scripts/run    # (python -m launcher) with no DISCORD_TOKEN; prints http://127.0.0.1:8765/

The page (``static/``) looks like a Discord channel: the bot's slash commands with
autocomplete, messages and board images as they arrive, clickable buttons, and a switch
to act as Amy, Ben, Cleo, Dev or a spectator; ephemeral answers show only to whoever they are
for. Amy and Ben also share a DM that the bot is not in, where `/crosshairs` works as
Discord's user-installed app does (docs/anywhere.md). Its small JSON API lives under
``/play/``; the bot runs in the same event loop, pointed at this server by
``DISCORD_API_BASE`` as in the end-to-end tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from i18n import in_language
from localcord import permissions
from localcord.activity_host import ActivityHost
from localcord.client import LocalcordError, People
from localcord.localised import command_list
from localcord.page_words import WORDS, page_words
from localcord.playground_activity import PlaygroundActivities, hosted_at, own_live_board
from localcord.records import (
    LOADING,
    PRIVATE,
    THREADS,
    Channel,
    Json,
    Message,
    User,
    as_json,
)
from localcord.scheduled import listed_events
from localcord.server import LocalDiscord

if TYPE_CHECKING:
    from bot.config import Config

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
DEFAULT_PORT = 8765
POLL_SECONDS = 20.0
MESSAGES_SHOWN = 80  # messages a channel shows at first, and how many more "Load older" adds
IMAGE_ENDINGS = (".png", ".gif", ".jpg")
# Names, not numbers: "Pilot 2 (P1)" read as a contradiction once seats rotated in a series.
PILOTS = ("Amy", "Ben", "Cleo", "Dev")


class Playground:
    def __init__(self, server: LocalDiscord, language: str = "", activity_url: str = "") -> None:
        """``language`` (a Discord locale such as ``de``): the server's preferred locale
        and every person's, to see the bot in that language; "" for English.
        ``activity_url``: where the app's Activity is served (docs/activity.md)."""
        self.server = server
        self.world = server.world
        self.people = People(server, timeout=60.0)
        locale = language or "en-GB"
        if language:
            self.world.guild_locales[self.world.guild_id] = language
        self.pilots = [self.people.join(name, locale) for name in PILOTS]
        self.spectator = self.people.join("Spectator", locale)
        self.channel = self.world.add_channel("dogfights" if not language else "crosshairs")
        # a DM the bot is not in: only the user-installed app reaches it
        self.world.private_channel(self.pilots[0], self.pilots[1])
        self.closing = False
        self.host = ActivityHost(self.world, server.activities, activity_url)
        self.activities = PlaygroundActivities(
            self.people,
            server.activities,
            self.host,
            lambda body: (self._user(body.get("viewer")), self._channel(body.get("channel"))),
        )
        server.app.add_routes(self.activities.routes())
        server.app.on_shutdown.append(self._wake_pollers)
        server.app.add_routes(
            [
                web.get("/", self.index),
                web.static("/static", STATIC),
                web.get("/play/state", self.state),
                web.post("/play/command", self.command),
                web.post("/play/autocomplete", self.autocomplete),
                web.post("/play/click", self.click),
                web.post("/play/choose", self.choose),
                web.post("/play/interested", self.interested),
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
        """Everything the page shows, once it differs from what the page last showed
        (``digest``) after a change past ``since``: a long poll, so the page hears of new
        messages at once, and is not sent the same page again for every change elsewhere
        (another channel, another person's view), which it would draw again."""
        since = int(request.query.get("since", "-1"))
        shown_before = request.query.get("digest", "")
        # a thread can be long: the page shows the newest messages and loads older ones
        # on request, MESSAGES_SHOWN more each time
        try:
            shown = max(MESSAGES_SHOWN, int(request.query.get("limit", MESSAGES_SHOWN)))
        except ValueError:
            shown = MESSAGES_SHOWN
        deadline = time.monotonic() + POLL_SECONDS
        while True:
            while self.world.version <= since and time.monotonic() < deadline and not self.closing:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.world.changed().wait(), deadline - time.monotonic())
            since = self.world.version
            page = self._page(request, shown)
            drawn = json.dumps(page, sort_keys=True).encode()
            digest = hashlib.blake2b(drawn, digest_size=12).hexdigest()
            if digest != shown_before or time.monotonic() >= deadline or self.closing:
                return as_json(page | {"version": since, "digest": digest})

    def _page(self, request: web.Request, shown: int) -> Json:
        viewer = self._user(request.query.get("viewer"))
        channel = self.world.channels.get(int(request.query.get("channel") or self.channel.id))
        if channel is None or (channel.type in PRIVATE and not _recipient(channel, viewer)):
            channel = self.channel  # someone else's DM
        elif not permissions.sees(self.world, viewer.id, channel):
            channel = self.channel  # another team's private thread
        visible = self.world.history(channel, viewer.id)
        return {
            "viewer": str(viewer.id),
            "channel": str(channel.id),
            "people": [_person(u) for u in (*self.pilots, self.spectator, self.world.bot)],
            "channels": self._channels(viewer),
            "events": listed_events(self.world, channel, viewer),
            "commands": command_list(self.world.commands, viewer.locale),
            "words": page_words(viewer.locale),
            "messages": [self._message(m, viewer) for m in visible[-shown:]],
            "older": max(0, len(visible) - shown),
            "activity": self.activities.shown(
                viewer, channel, request.query.get("platform", "desktop")
            ),
        }

    def _channels(self, viewer: User) -> list[Json]:
        """The sidebar as Discord's: each channel with its threads under it, then the
        viewer's DMs in a section of their own (a thread is never under a DM)."""
        every = self.world.channels.values()
        listed = []
        for c in every:
            if c.type in PRIVATE or c.type in THREADS:
                continue
            listed += [c, *(t for t in every if t.type in THREADS and t.parent_id == c.id)]
        listed = [c for c in listed if permissions.sees(self.world, viewer.id, c)]
        listed += [c for c in every if c.type in PRIVATE and _recipient(c, viewer)]
        return [
            {
                "id": str(c.id),
                "name": c.name,
                "thread": c.type in THREADS,
                "dm": c.type in PRIVATE,
            }
            for c in listed
        ]

    def _message(self, message: Message, viewer: User) -> Json:
        images = {
            a.filename: {"src": self.server.base_url + a.path, "alt": a.description}
            for a in message.attachments
            if a.filename.endswith(IMAGE_ENDINGS)
        }
        # other files (a record, an analysis report) are links to download, as in Discord
        files = [
            {"name": a.filename, "href": self.server.base_url + a.path, "alt": a.description}
            for a in message.attachments
            if not a.filename.endswith(IMAGE_ENDINGS)
        ]
        embeds = [self._embed(e, images) for e in message.embeds]
        # As in Discord, an attachment an embed shows is drawn inside the embed only.
        shown = {e["image"]["src"] for e in embeds if e.get("image")}
        return {
            "id": str(message.id),
            "author": message.author.name,
            "bot": message.author.bot,
            "html": self._html(message.content),
            "thinking": bool(message.flags & LOADING),
            "ephemeral": message.ephemeral,
            "edited": message.edited is not None,
            # each edit, even one that changes nothing, is drawn again, as Discord's
            # client does: a menu chosen in is offered again unchosen
            "version": message.version,
            "images": [i for i in images.values() if i["src"] not in shown],
            "files": files,
            "embeds": embeds,
            "rows": [_row(row.get("components", [])) for row in message.components],
        }

    def _embed(self, embed: Json, images: dict[str, Json]) -> Json:
        """An embed as the page draws it: colour bar, author, title, description,
        fields (inline ones side by side), image and footer, markdown applied."""

        def image(key: str) -> Json | None:
            url = str((embed.get(key) or {}).get("url") or "")
            if url.startswith("attachment://"):
                return images.get(url.removeprefix("attachment://"))
            return {"src": url, "alt": ""} if url else None

        colour = embed.get("color")
        return {
            "colour": f"#{colour:06x}" if isinstance(colour, int) else "",
            "author": (embed.get("author") or {}).get("name", ""),
            "title": self._html(str(embed.get("title") or "")),
            "description": self._html(str(embed.get("description") or "")),
            "fields": [
                {
                    "name": self._html(str(f.get("name", ""))),
                    "value": self._html(str(f.get("value", ""))),
                    "inline": bool(f.get("inline")),
                }
                for f in embed.get("fields") or []
            ],
            "image": image("image"),
            "thumbnail": image("thumbnail"),
            "footer": self._html(str((embed.get("footer") or {}).get("text", ""))),
        }

    def _html(self, text: str) -> str:
        """Discord's markdown, what the bot uses: mentions, channel links, timestamps,
        headings, subtext, quotes, bold, italics, underline, strike-through, code and code
        blocks (between fences of three backticks, shown as they are)."""
        fenced = text.split("```")
        if len(fenced) > 1 and len(fenced) % 2:
            return "".join(
                _code_block(part) if k % 2 else self._html(part) for k, part in enumerate(fenced)
            )
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        text = "\n".join(_block(line) for line in text.split("\n"))

        def user(m: re.Match[str]) -> str:
            found = self.world.users.get(int(m[1]))
            return f'<span class="mention">@{found.name if found else "someone"}</span>'

        def channel(m: re.Match[str]) -> str:
            found = self.world.channels.get(int(m[1]))
            name = found.name if found else "unknown"
            return f'<a class="channel-link" href="#" data-channel="{m[1]}">#{name}</a>'

        text = re.sub(
            r"&lt;a?:(\w{2,32}):(\d+)&gt;",
            r'<img class="emoji" src="/emojis/\2.png" alt=":\1:" title=":\1:">',
            text,
        )
        text = re.sub(r"&lt;@!?(\d+)&gt;", user, text)
        text = re.sub(r"&lt;#(\d+)&gt;", channel, text)
        text = re.sub(r"&lt;t:(\d+):R&gt;", lambda m: _relative(int(m[1])), text)
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        text = re.sub(r"__(.+?)__", r"<u>\1</u>", text)
        text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
        return re.sub(r"(?<![\w*])[*_]([^*_\n]+)[*_](?![\w*])", r"<i>\1</i>", text)

    # ------------------------------------------------------------ acting

    async def command(self, request: web.Request) -> web.Response:
        body = await request.json()
        viewer, channel = self._user(body.get("viewer")), self._channel(body.get("channel"))
        command = str(body["command"])
        options = self._options(viewer, command, body.get("options") or {})
        # Discord's client will not send a command with a required option left empty.
        missing = [o["name"] for o in self._spec(viewer, command)["options"] if o["required"]]
        missing = [name for name in missing if name not in options]
        if missing:
            said = in_language(viewer.locale, WORDS["required"], names=", ".join(missing))
            return as_json({"error": said}, 400)
        return await self._act(self.people.slash(viewer, channel, command, **options))

    async def autocomplete(self, request: web.Request) -> web.Response:
        """Suggestions while typing. As in Discord, a failure shows no suggestions
        rather than an error: the person can still type and send."""
        body = await request.json()
        viewer, channel = self._user(body.get("viewer")), self._channel(body.get("channel"))
        focus = str(body["focus"])
        options = self._options(viewer, str(body["command"]), body.get("options") or {})
        options.setdefault(focus, "")  # an empty box is still the focused option
        try:
            choices = await self.people.autocomplete(
                viewer, channel, body["command"], focus, **options
            )
        except LocalcordError as exc:
            log.warning("playground: autocomplete of %s failed: %s", focus, exc)
            choices = []
        return as_json({"choices": choices})

    async def click(self, request: web.Request) -> web.Response:
        body = await request.json()
        seen = self._seen(body)
        if seen is None:
            return as_json({"error": "no such message"}, status=404)
        custom_id = str(body["custom_id"])
        return await self._act(self.people.click(*seen, custom_id), seen[0], custom_id)

    async def choose(self, request: web.Request) -> web.Response:
        body = await request.json()
        seen = self._seen(body)
        if seen is None:
            return as_json({"error": "no such message"}, status=404)
        custom_id = str(body["custom_id"])
        values = [str(v) for v in body.get("values") or []]
        pressed = f"{custom_id} {values}"
        return await self._act(self.people.choose(*seen, custom_id, *values), seen[0], pressed)

    def _seen(self, body: Json) -> tuple[User, Message] | None:
        """Who presses, and the message they press on, if they can see it."""
        viewer = self._user(body.get("viewer"))
        message = self.world.messages.get(int(body["message"]))
        if message is None or not message.visible(viewer.id):
            return None
        return viewer, message

    async def interested(self, request: web.Request) -> web.Response:
        """The viewer presses Interested on a server's event (again: no longer)."""
        body = await request.json()
        viewer = self._user(body.get("viewer"))
        event = self.world.scheduled_events.get(int(body.get("event") or 0))
        if event is None:
            return as_json({"error": "no such event"}, status=404)
        self.server.calendar.interested(viewer, event, viewer.id not in event.interested)
        return as_json({"ok": True})

    async def _act(self, action: Any, who: User | None = None, what: str = "") -> web.Response:
        # at INFO (LOG_LEVEL=INFO): each press's path, so a press that seems lost can be
        # told apart from one the bot answered (or refused) without the page showing it
        if who is not None:
            log.info("playground: %s presses %s", who.name, what)
        try:
            await action
        except LocalcordError as exc:
            if who is not None:
                log.info("playground: %s's press of %s failed: %s", who.name, what, exc)
            return as_json({"error": str(exc)}, status=400)
        if who is not None:
            log.info("playground: %s's press of %s answered", who.name, what)
        return as_json({"ok": True})

    def _spec(self, viewer: User, command: str) -> Json:
        """The command as ``viewer`` sees it, named in their language."""
        listed = command_list(self.world.commands, viewer.locale)
        spec = next((c for c in listed if c["name"] == command), None)
        if spec is None:
            raise web.HTTPBadRequest(text=f"no command /{command}")
        return spec

    def _options(self, viewer: User, command: str, given: dict[str, Any]) -> dict[str, Any]:
        """The page's option values, typed as the command declares them."""
        kinds = {o["name"]: o["type"] for o in self._spec(viewer, command)["options"]}
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


def _code_block(text: str) -> str:
    """A fenced code block: its first line names a language when it holds no space."""
    first, newline, rest = text.partition("\n")
    body = rest if newline and " " not in first else text
    body = body.removesuffix("\n").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<pre class="code-block"><code>{body}</code></pre>'


def _block(line: str) -> str:
    """A line's block markdown: a heading, subtext or a quote."""
    if m := re.match(r"(#{1,3}) (.*)", line):
        return f'<span class="h{len(m[1])}">{m[2]}</span>'
    if line.startswith("-# "):
        return f'<span class="subtext">{line[3:]}</span>'
    if line.startswith("&gt; "):
        return f'<span class="quote">{line[5:]}</span>'
    return line


def _row(items: list[Json]) -> Json:
    """An action row as the page draws it: buttons, or one select menu."""
    select = next((c for c in items if c.get("type") == 3), None)
    if select is not None:
        return {
            "select": {
                "custom_id": select.get("custom_id", ""),
                "placeholder": select.get("placeholder") or "",
                "disabled": bool(select.get("disabled")),
                "options": [
                    {
                        "label": o.get("label", ""),
                        "value": o.get("value", ""),
                        "description": o.get("description") or "",
                        **_emoji(o.get("emoji")),
                    }
                    for o in select.get("options") or []
                ],
            }
        }
    return {
        "buttons": [
            {
                "label": b.get("label") or "",
                **_emoji(b.get("emoji")),
                "custom_id": b.get("custom_id", ""),
                "style": b.get("style", 2),
                "disabled": bool(b.get("disabled")),
            }
            for b in items
            if b.get("type") == 2
        ]
    }


def _emoji(emoji: Json | None) -> Json:
    """A component's emoji as the page draws it: a character, or a custom emoji's image."""
    found = emoji or {}
    if found.get("id"):
        return {"emoji": "", "emoji_src": f"/emojis/{found['id']}.png"}
    return {"emoji": found.get("name", ""), "emoji_src": ""}


def _recipient(channel: Channel, user: User) -> bool:
    """Whether ``user`` is in the DM or group DM ``channel``."""
    return any(r["id"] == str(user.id) for r in channel.recipients or [])


def _person(user: User) -> Json:
    return {"id": str(user.id), "name": user.name, "bot": user.bot}


def _relative(at: int) -> str:
    minutes = max(0, round((at - time.time()) / 60))
    return f"in {minutes} min"


# ---------------------------------------------------------------- running it


async def serve(port: int = DEFAULT_PORT, database: Path | None = None, language: str = "") -> None:
    """Run the local Discord, the page and the real bot until the process is asked to
    stop (SIGINT, SIGTERM); ``language`` and ``ACTIVITY_URL`` (the environment's): see
    :class:`Playground`."""
    from bot.app import create_bot, until_stopped
    from bot.config import Config

    read = settings(os.environ)
    server = LocalDiscord()
    playground = Playground(server, language, os.environ.get("ACTIVITY_URL", ""))
    try:
        await server.start(port)
    except OSError:
        await server.start(0)  # the usual port is taken: any free one will do
    await playground.host.start()
    with tempfile.TemporaryDirectory(prefix="crosshairs-playground-") as scratch:
        config = Config(
            token="playground",
            database_path=database or Path(scratch) / "playground.db",
            computer_pace=0.6,
            api_base=server.api_base,
            **own_live_board(playground.host),  # the Activity: the bot's live board
            # the local Discord runs on this process's loop too: search and drawing
            # are kept off it, in other processes (WORKERS=0 would draw in threads)
            workers=read.workers,
            worker_niceness=read.worker_niceness,
            board_pixels=read.board_pixels,
        )
        bot = create_bot(config)

        async def running() -> None:
            await bot.login("playground")  # its setup starts the live board's server
            hosted_at(playground.host, bot.live_server.port if bot.live_server else None)
            print(
                f"Playground: open {server.base_url}/ in your browser (Ctrl-C stops it).",
                flush=True,
            )
            await bot.connect()

        try:
            # stopped by SIGINT or SIGTERM even when the process was started with SIGINT
            # ignored (from a script, in the background), which asyncio.run leaves alone
            if await until_stopped(running()):
                print("Playground stopped.", flush=True)
        finally:
            await bot.close()
            await playground.host.stop()
            await server.stop()


def settings(environ: Mapping[str, str]) -> Config:
    """The settings the playground takes from the environment, read (and a bad one
    refused) as the bot reads them: the boards' size, the workers (one per core unless
    set: the tests' browsers ask for one) and their priority (the tests' browsers ask for
    0: below the loop, the drawing starves on a busy machine)."""
    from bot.config import Config

    taken = ("BOARD_PIXELS", "WORKERS", "WORKER_NICENESS")
    return Config.from_env({k: environ.get(k, "") for k in taken})


def log_level(environ: Mapping[str, str]) -> str:
    """The playground's logging: quieter than the bot's own default (INFO), so that a
    newcomer's terminal shows what needs them; ``LOG_LEVEL=INFO`` shows what the bot and
    the local Discord do. A value the bot's configuration refuses is reported by it."""
    level = environ.get("LOG_LEVEL", "").strip().upper()
    return level if level in ("DEBUG", "INFO", "WARNING", "ERROR") else "WARNING"


def run(port: int = DEFAULT_PORT, language: str = "") -> int:
    from bot.config import ConfigError

    logging.basicConfig(level=log_level(os.environ), format="%(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(port, language=language))
    except ConfigError as exc:
        print(f"Cannot start the playground: {exc}", file=sys.stderr)
        return 2
    return 0
