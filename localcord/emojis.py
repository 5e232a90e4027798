"""The application's own emojis (``/applications/{app}/emojis``): listed, created and
deleted as Discord's spec describes them, usable by the bot in every server and DM as
``<:name:id>``. Their images are served at ``/emojis/{id}.png`` (Discord's CDN path),
where the playground shows them.

Discord refuses an upload whose name is not 2 to 32 letters, digits or underscores, is
already taken, or whose image is not a PNG, JPEG, GIF or WebP data URI of at most
256 KiB (``50035``); a test that wants every upload refused sets ``refusing`` (Discord's
``30008 Maximum number of emojis reached``), as when an application is full.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from localcord.records import Json, Snowflakes, User, as_json

NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
IMAGE = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.+)$", re.S)
MAX_BYTES = 256 * 1024


@dataclass
class AppEmojis:
    """The application's emojis by id, with their images."""

    found: dict[int, Json] = field(default_factory=dict)
    images: dict[int, bytes] = field(default_factory=dict)
    refusing: bool = False  # every upload refused, as for a full application

    def named(self, name: str) -> Json | None:
        return next((e for e in self.found.values() if e["name"] == name), None)


def error(status: int, code: int, message: str) -> web.Response:
    return as_json({"message": message, "code": code}, status=status)


def _invalid(field_name: str, code: str, message: str) -> web.Response:
    body: dict[str, Any] = {
        "message": "Invalid Form Body",
        "code": 50035,
        "errors": {field_name: {"_errors": [{"code": code, "message": message}]}},
    }
    return as_json(body, status=400)


class Handlers:
    def __init__(self, emojis: AppEmojis, ids: Snowflakes, bot: User) -> None:
        self.emojis, self.ids, self.bot = emojis, ids, bot

    def _app(self, request: web.Request) -> bool:
        return request.match_info["app"] == str(self.bot.id)

    async def listed(self, request: web.Request) -> web.Response:
        if not self._app(request):
            return error(404, 10002, "Unknown Application")
        return as_json({"items": list(self.emojis.found.values())})

    async def create(self, request: web.Request) -> web.Response:
        if not self._app(request):
            return error(404, 10002, "Unknown Application")
        body = await request.json()
        if self.emojis.refusing:
            return error(400, 30008, "Maximum number of emojis reached")
        name = str(body.get("name") or "")
        if not NAME.match(name):
            return _invalid("name", "BASE_TYPE_BAD_LENGTH", "Must be 2 to 32 letters or digits.")
        if self.emojis.named(name) is not None:
            return _invalid("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Name taken.")
        found = IMAGE.match(str(body.get("image") or ""))
        try:
            data = base64.b64decode(found[2], validate=True) if found else b""
        except binascii.Error:
            data = b""
        if not data or len(data) > MAX_BYTES:
            return _invalid("image", "BINARY_TYPE_MAX_SIZE", "Invalid image data or too large.")
        emoji_id = self.ids.next()
        emoji: Json = {
            "id": str(emoji_id),
            "name": name,
            "roles": [],
            "user": self.bot.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        self.emojis.found[emoji_id] = emoji
        self.emojis.images[emoji_id] = data
        return as_json(emoji, status=201)

    def _one(self, request: web.Request) -> int | None:
        key = request.match_info["emoji"]
        emoji_id = int(key) if key.isdigit() else 0
        return emoji_id if self._app(request) and emoji_id in self.emojis.found else None

    async def get(self, request: web.Request) -> web.Response:
        emoji_id = self._one(request)
        if emoji_id is None:
            return error(404, 10014, "Unknown Emoji")
        return as_json(self.emojis.found[emoji_id])

    async def delete(self, request: web.Request) -> web.Response:
        emoji_id = self._one(request)
        if emoji_id is None:
            return error(404, 10014, "Unknown Emoji")
        del self.emojis.found[emoji_id]
        self.emojis.images.pop(emoji_id, None)
        return web.Response(status=204)

    async def image(self, request: web.Request) -> web.Response:
        key = request.match_info["emoji"]
        data = self.emojis.images.get(int(key)) if key.isdigit() else None
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, content_type="image/png")


def routes(emojis: AppEmojis, ids: Snowflakes, bot: User, api: str) -> list[web.RouteDef]:
    h = Handlers(emojis, ids, bot)
    one = api + "/applications/{app}/emojis/{emoji}"
    return [
        web.get(api + "/applications/{app}/emojis", h.listed),
        web.post(api + "/applications/{app}/emojis", h.create),
        web.get(one, h.get),
        web.delete(one, h.delete),
        web.get("/emojis/{emoji:\\d+}.png", h.image),
    ]
