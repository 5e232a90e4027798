"""The routes of an interaction under ``/api/v10``: its callback (the first answer,
with file uploads) and its webhook (follow-ups, and reading, editing and deleting its
messages), answered from the world as Discord answers them (:mod:`localcord.rest`).
"""

from __future__ import annotations

import logging
import time

from aiohttp import web

from localcord import documented
from localcord.activities import LAUNCH_ACTIVITY, Activities
from localcord.bodies import File, Messages, error, invalid, read_body
from localcord.checks import Checks
from localcord.records import (
    EPHEMERAL,
    INTERACTION_DEADLINE,
    LOADING,
    Interaction,
    Json,
    Message,
    as_json,
)
from localcord.state import World

log = logging.getLogger(__name__)

PONG, MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9


async def message_body(
    request: web.Request, checks: Checks
) -> tuple[Json, list[File]] | web.Response:
    """A new message's payload and files, or Discord's refusal of an empty message or
    one over its limits."""
    body, files = await read_body(request)
    if documented.empty_message(body, len(files)):
        return checks.refused_empty(request)
    return invalid(body) or (body, files)


class InteractionRoutes:
    def __init__(
        self, world: World, messages: Messages, checks: Checks, activities: Activities
    ) -> None:
        self.world = world
        self.messages = messages
        self.checks = checks
        self.activities = activities

    async def callback(self, request: web.Request) -> web.Response:
        interaction = self.world.interactions.get(request.match_info["token"])
        if interaction is None or str(interaction.id) != request.match_info["id"]:
            return error(404, 10062, "Unknown interaction")
        if interaction.response_type is not None:
            interaction.refused += 1
            return error(400, 40060, "Interaction has already been acknowledged.")
        now = time.monotonic()
        if now - interaction.created > INTERACTION_DEADLINE:
            # said in the log: a press refused so looks like a dead button to a person
            log.warning(
                "localcord: an interaction answered %.1f s after it was created: refused",
                now - interaction.created,
            )
            interaction.refused += 1
            interaction.late = True
            interaction.settled.set()
            return error(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        kind = int(body["type"])
        data: Json = body.get("data") or {}
        if problems := list(documented.callback_problems(interaction.type, kind)):
            return self.checks.refused(request, problems)
        if kind == LAUNCH_ACTIVITY:
            return await self.activities.launched(request, interaction)
        if kind == MESSAGE and documented.empty_message(data, len(files)):
            return self.checks.refused_empty(request)
        if kind in (MESSAGE, UPDATE) and (refused := invalid(data)):
            return refused
        interaction.response_type, interaction.responded = kind, now
        w = self.world
        if kind == MESSAGE:
            interaction.original = self.messages.post(interaction, data, files)
            interaction.settled.set()
        elif kind == DEFERRED:
            flags = (
                LOADING
                | (int(data.get("flags", 0)) & EPHEMERAL)
                | self.messages.forced(interaction)
            )
            interaction.original = w.post(
                interaction.channel,
                w.bot,
                flags=flags,
                visible_to=interaction.user.id if flags & EPHEMERAL else None,
                interaction=interaction,
            )
        elif kind in (DEFERRED_UPDATE, UPDATE):
            interaction.original = interaction.message
            if kind == UPDATE and interaction.message is not None:
                self.messages.edit(interaction.message, data, files)
            if kind == UPDATE:
                interaction.settled.set()
        elif kind == AUTOCOMPLETE:
            interaction.choices = list(data.get("choices", []))
            interaction.settled.set()
        else:  # a modal, or a pong nobody asked for: accepted and noted
            interaction.settled.set()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        original = interaction.original
        answer: Json = {
            "id": str(interaction.id),
            "type": interaction.type,
            "response_message_loading": kind == DEFERRED,
            "response_message_ephemeral": bool(original and original.ephemeral),
        }
        if original is not None:
            answer["response_message_id"] = str(original.id)
        if original is None or kind not in (MESSAGE, UPDATE):
            # The spec's resource is a created or updated message (or an activity): the
            # deferrals, autocomplete and modals answer with the interaction alone.
            return as_json({"interaction": answer})
        resource = {"type": kind, "message": self.messages.payload(original)}
        return as_json({"interaction": answer, "resource": resource})

    def _interaction(self, request: web.Request) -> Interaction | None:
        return self.world.interactions.get(request.match_info["token"])

    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request)
        if interaction is None:
            return error(404, 10015, "Unknown Webhook")
        read = await message_body(request, self.checks)
        if isinstance(read, web.Response):
            return read
        body, files = read
        original = interaction.original
        if original is not None and original.flags & LOADING:
            # Discord turns the first follow-up after a "thinking" defer into the answer.
            message = self.messages.edit(original, body, files, flags=original.flags & ~LOADING)
        else:
            message = self.messages.post(interaction, body, files)
        interaction.followups.append(message)
        interaction.settled.set()
        return as_json(self.messages.payload(message))

    def _webhook_message(self, request: web.Request) -> tuple[Interaction, Message] | None:
        interaction = self._interaction(request)
        if interaction is None:
            return None
        key = request.match_info["message"]
        message = (
            interaction.original
            if key == "@original"
            else self.world.messages.get(int(key))
            if key.isdigit()
            else None
        )
        if message is None or message.deleted:
            return None
        return interaction, message

    async def webhook_get(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if found is None:
            return error(404, 10008, "Unknown Message")
        return as_json(self.messages.payload(found[1]))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if found is None:
            return error(404, 10008, "Unknown Message")
        interaction, message = found
        body, files = await read_body(request)
        if refused := invalid(body):
            return refused
        self.messages.edit(message, body, files, flags=message.flags & ~LOADING)
        interaction.settled.set()
        return as_json(self.messages.payload(message))

    async def webhook_delete(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if found is None:
            return error(404, 10008, "Unknown Message")
        self.world.delete(found[1])
        found[0].settled.set()
        return web.Response(status=204)
