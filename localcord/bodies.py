"""What the REST routes read and write: a request's JSON payload and uploads (read once,
JSON or multipart), Discord's error answers, and :class:`Messages`, which posts and edits
a message from a payload and keeps its uploads for ``/attachments/``."""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import BodyPartReader, web

from localcord import limits, permissions
from localcord.records import EPHEMERAL, Attachment, Interaction, Json, Message, as_json
from localcord.spec import describe, refusal
from localcord.state import World

log = logging.getLogger(__name__)

File = tuple[int, str, str, bytes]  # index, filename, content type, bytes


def error(status: int, code: int, message: str) -> web.Response:
    return as_json({"message": message, "code": code}, status=status)


def invalid(data: Json) -> web.Response | None:
    """Discord's refusal of a message payload over its limits, or None when it fits."""
    found = limits.problems(data)
    if not found:
        return None
    log.warning("localcord: refused a message over Discord's limits: %s", describe(found))
    return as_json(refusal(found), status=400)


class Messages:
    """Messages posted and edited through the REST routes, and the files uploaded."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.base_url = ""  # http://host:port, set once the server listens
        self.attachments: dict[int, Attachment] = {}

    def payload(self, message: Message) -> Json:
        return message.payload(self.base_url)

    def post(self, interaction: Interaction, data: Json, files: list[File]) -> Message:
        w = self.world
        flags = int(data.get("flags") or 0) | self.forced(interaction)
        return w.post(
            interaction.channel,
            w.bot,
            content=str(data.get("content") or ""),
            attachments=self.attachments_of(data, files, []),
            components=data.get("components") or [],
            embeds=data.get("embeds") or [],
            flags=flags,
            visible_to=interaction.user.id if flags & EPHEMERAL else None,
            interaction=interaction,
            allowed_mentions=data.get("allowed_mentions"),
        )

    def forced(self, interaction: Interaction) -> int:
        """EPHEMERAL where Discord makes every answer ephemeral: a user-installed app's
        in a server that has not added it, for someone without Use External Apps there
        (Discord's permissions docs, and its changelog of June 2024)."""
        channel = interaction.channel
        if channel.bot_member or not channel.guild_id:
            return 0
        granted = permissions.of(self.world, interaction.user.id, channel)
        return 0 if granted & permissions.BITS["use_external_apps"] else EPHEMERAL

    def edit(
        self, message: Message, data: Json, files: list[File], flags: int | None = None
    ) -> Message:
        return self.world.edit(
            message,
            content=data.get("content") if "content" in data else None,
            attachments=self.attachments_of(data, files, message.attachments),
            components=data.get("components") if "components" in data else None,
            embeds=data.get("embeds") if "embeds" in data else None,
            flags=flags,
            allowed_mentions=data.get("allowed_mentions"),
        )

    def attachments_of(
        self, data: Json, files: list[File], existing: list[Attachment]
    ) -> list[Attachment] | None:
        """The message's attachments after this request (None: unchanged). Listed ids
        below the number of uploads refer to ``files[n]``; others keep an existing one."""
        listed: list[Json] | None = data.get("attachments")
        if listed is None:
            if not files:
                return None
            listed = [{"id": index} for index, *_ in files]
        uploads = {index: (name, ctype, blob) for index, name, ctype, blob in files}
        kept = {a.id: a for a in existing}
        result = []
        for entry in listed:
            key = int(entry["id"])
            if key in uploads:
                name, ctype, blob = uploads[key]
                attachment = Attachment(
                    self.world.ids.next(),
                    str(entry.get("filename") or name),
                    blob,
                    ctype,
                    str(entry.get("description") or ""),
                )
                self.attachments[attachment.id] = attachment
                result.append(attachment)
            elif key in kept:
                result.append(kept[key])
        for gone in kept.keys() - {a.id for a in result}:
            self.attachments.pop(gone, None)
        return result


BODY = "localcord.body"


async def read_body(request: web.Request) -> tuple[Json, list[File]]:
    """The JSON payload and the uploaded files of a request, JSON or multipart, read
    once (the checks read it before the route does)."""
    if BODY not in request:
        request[BODY] = await _read_body(request)
    found: tuple[Json, list[File]] = request[BODY]
    return found


async def _read_body(request: web.Request) -> tuple[Json, list[File]]:
    if not request.content_type.startswith("multipart/"):
        if not request.can_read_body:
            return {}, []
        body: Any = await request.json()
        return body, []
    payload: Json = {}
    files: list[File] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(await part.text())
        elif name.startswith("files["):
            index = int(name[len("files[") : -1])
            ctype = part.headers.get("Content-Type", "application/octet-stream")
            files.append((index, part.filename or f"file{index}", ctype, bytes(await part.read())))
    return payload, files
