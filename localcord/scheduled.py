"""A server's scheduled events (Discord's resources/guild-scheduled-event): what the
Events list of a server shows, with who pressed *Interested*.

The REST routes the bot calls (list, create, get, modify, delete, the interested
users) and the gateway's GUILD_SCHEDULED_EVENT_CREATE/UPDATE/DELETE/USER_ADD/USER_REMOVE
(sent only to a session that asked for the Guild Scheduled Events intent,
localcord/gateway.py). Held to Discord's docs where the spec cannot say:

* an external event (entity type 3) needs ``entity_metadata.location`` and a
  ``scheduled_end_time`` after its start, and no channel; its start may not be in the
  past (50035, each complaint under its field);
* creating one needs Create Events server-wide (an external event has no channel whose
  overwrites could count); modifying or deleting one, Manage Events, or Create Events
  for the one who created it (403 50013);
* the status goes SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED; an event that is
  COMPLETED or CANCELED changes no more (400 180000 "Cannot update a finished event").

Not modelled: events in a voice or stage channel (refused with 50035 on
``entity_type``), cover images, recurrence, and Discord starting or ending an external
event by itself at its times.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING

from aiohttp import web

from localcord import roles
from localcord.bodies import error, read_body
from localcord.records import (
    ACTIVE,
    CANCELED,
    COMPLETED,
    EXTERNAL,
    SCHEDULED,
    Channel,
    Json,
    ScheduledEvent,
    User,
    as_json,
)

if TYPE_CHECKING:
    from localcord.state import World

NEXT = {SCHEDULED: {SCHEDULED, ACTIVE, CANCELED}, ACTIVE: {ACTIVE, COMPLETED}}
INTENT = 1 << 16  # GUILD_SCHEDULED_EVENTS: who hears of events and interest in them
API = "/api/v10"
EVENTS = "/guilds/{guild}/scheduled-events"


def _invalid(problems: dict[str, tuple[str, str]]) -> web.Response:
    errors = {
        name: {"_errors": [{"code": code, "message": said}]}
        for name, (code, said) in problems.items()
    }
    return as_json({"code": 50035, "message": "Invalid Form Body", "errors": errors}, status=400)


def _when(text: object) -> float | None:
    try:
        return datetime.fromisoformat(str(text)).timestamp()
    except ValueError:
        return None


def _times(start: object, end: object, now: float, starting: bool) -> dict[str, tuple[str, str]]:
    """What Discord says of a start and end (``starting``: the start is being set)."""
    found: dict[str, tuple[str, str]] = {}
    begins, ends = _when(start), _when(end)
    if begins is None:
        found["scheduled_start_time"] = ("DATE_TIME_TYPE_INVALID", "Not a valid date-time.")
    elif starting and begins < now:
        found["scheduled_start_time"] = (
            "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
            "Cannot schedule event in the past.",
        )
    if ends is None:
        found["scheduled_end_time"] = (
            "GUILD_SCHEDULED_EVENT_REQUIRES_END_TIME",
            "An external event needs an end time.",
        )
    elif begins is not None and ends <= begins:
        found["scheduled_end_time"] = (
            "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
            "Cannot schedule event to end before starting.",
        )
    return found


class Calendar:
    """The scheduled events of every guild of the world, and their REST routes."""

    def __init__(self, world: World) -> None:
        self.world = world

    @property
    def events(self) -> dict[int, ScheduledEvent]:
        return self.world.scheduled_events

    def routes(self) -> list[web.RouteDef]:
        one = EVENTS + "/{event}"
        return [
            web.get(API + EVENTS, self.list),
            web.post(API + EVENTS, self.create),
            web.get(API + one, self.get),
            web.patch(API + one, self.modify),
            web.delete(API + one, self.delete),
            web.get(API + one + "/users", self.users),
        ]

    def of_guild(self, guild_id: int) -> list[ScheduledEvent]:
        return [e for e in self.events.values() if e.guild_id == guild_id]

    def _granted(self, guild_id: int) -> int | None:
        server = self.world.servers.get(guild_id)
        return None if server is None else server.base(self.world.bot.id)

    def _found(self, request: web.Request) -> ScheduledEvent | web.Response:
        guild, key = request.match_info["guild"], request.match_info["event"]
        found = self.events.get(int(key)) if key.isdigit() else None
        if found is None or str(found.guild_id) != guild:
            return error(404, 10070, "Unknown Guild Scheduled Event")
        return found

    def _managed(self, request: web.Request) -> ScheduledEvent | web.Response:
        """The event a request names, if the bot may change it; else Discord's error."""
        found = self._found(request)
        if isinstance(found, web.Response):
            return found
        granted = self._granted(found.guild_id) or 0
        own = found.creator is self.world.bot and granted & roles.CREATE_EVENTS
        if not (granted & roles.MANAGE_EVENTS or own):
            return error(403, 50013, "Missing Permissions")
        return found

    async def list(self, request: web.Request) -> web.Response:
        guild = int(request.match_info["guild"])
        counted = request.query.get("with_user_count") in ("1", "true", "True")
        return as_json([e.payload(counted) for e in self.of_guild(guild)])

    async def get(self, request: web.Request) -> web.Response:
        found = self._found(request)
        if isinstance(found, web.Response):
            return found
        return as_json(found.payload(request.query.get("with_user_count") in ("1", "true")))

    async def create(self, request: web.Request) -> web.Response:
        guild = int(request.match_info["guild"])
        granted = self._granted(guild)
        if granted is None or guild in self.world.removed_from:
            return error(403, 50001, "Missing Access")
        if not granted & roles.CREATE_EVENTS:  # an administrator's base holds every bit
            return error(403, 50013, "Missing Permissions")
        body, _ = await read_body(request)
        if int(body.get("entity_type") or 0) != EXTERNAL:
            return _invalid(
                {"entity_type": ("BASE_TYPE_CHOICES", "localcord models external events only.")}
            )
        location = (body.get("entity_metadata") or {}).get("location")
        problems = _times(
            body.get("scheduled_start_time"), body.get("scheduled_end_time"), time.time(), True
        )
        if not location:
            problems["entity_metadata"] = (
                "BASE_TYPE_REQUIRED",
                "An external event needs a location.",
            )
        if body.get("channel_id") is not None:
            problems["channel_id"] = ("BASE_TYPE_INVALID", "An external event has no channel.")
        if problems:
            return _invalid(problems)
        event = ScheduledEvent(
            self.world.ids.next(),
            guild,
            self.world.bot,
            str(body["name"]),
            body.get("description"),
            str(body["scheduled_start_time"]),
            str(body["scheduled_end_time"]),
            str(location),
        )
        self.events[event.id] = event
        self._announce("GUILD_SCHEDULED_EVENT_CREATE", event)
        return as_json(event.payload())

    async def modify(self, request: web.Request) -> web.Response:
        found = self._managed(request)
        if isinstance(found, web.Response):
            return found
        if found.status not in NEXT:
            return error(400, 180000, "Cannot update a finished event")
        body, _ = await read_body(request)
        status = int(body.get("status") or found.status)
        start = body.get("scheduled_start_time", found.start)
        end = body.get("scheduled_end_time", found.end)
        moved = "scheduled_start_time" in body
        problems = _times(start, end, time.time(), moved)
        if status not in NEXT[found.status]:
            problems["status"] = (
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS",
                "Cannot change to this status.",
            )
        if moved and found.status != SCHEDULED:
            problems["scheduled_start_time"] = (
                "GUILD_SCHEDULED_EVENT_STARTED",
                "The event has started.",
            )
        if problems:
            return _invalid(problems)
        found.name = str(body.get("name", found.name))
        found.description = body.get("description", found.description)
        found.start, found.end, found.status = str(start), str(end), status
        if "entity_metadata" in body:
            found.location = str((body["entity_metadata"] or {}).get("location") or found.location)
        self._announce("GUILD_SCHEDULED_EVENT_UPDATE", found)
        return as_json(found.payload())

    async def delete(self, request: web.Request) -> web.Response:
        found = self._managed(request)
        if isinstance(found, web.Response):
            return found
        del self.events[found.id]
        self._announce("GUILD_SCHEDULED_EVENT_DELETE", found)
        return web.Response(status=204)

    async def users(self, request: web.Request) -> web.Response:
        found = self._found(request)
        if isinstance(found, web.Response):
            return found
        limit = int(request.query.get("limit", "100"))
        people = [self.world.users[u] for u in found.interested if u in self.world.users]
        return as_json(
            [
                {
                    "guild_scheduled_event_id": str(found.id),
                    "user_id": str(user.id),
                    "user": user.payload(),
                    "response": 1,
                }
                for user in people[:limit]
            ]
        )

    # ------------------------------------------------------------ people

    def interested(self, user: User, event: ScheduledEvent, interested: bool = True) -> None:
        """``user`` presses *Interested* on ``event`` (``interested`` False: presses it
        again, no longer interested), as in a server's Events list."""
        if interested == (user.id in event.interested):
            return
        if interested:
            event.interested.append(user.id)
        else:
            event.interested.remove(user.id)
        kind = "GUILD_SCHEDULED_EVENT_USER_" + ("ADD" if interested else "REMOVE")
        if self.world.dispatch is not None:
            self.world.dispatch(
                kind,
                {
                    "guild_scheduled_event_id": str(event.id),
                    "user_id": str(user.id),
                    "guild_id": str(event.guild_id),
                },
            )
        self.world.touch(None)

    def _announce(self, kind: str, event: ScheduledEvent) -> None:
        if self.world.dispatch is not None:
            self.world.dispatch(kind, event.payload(with_count=True))
        self.world.touch(None)


def listed_events(world: World, channel: Channel, viewer: User) -> list[Json]:
    """The Events list of ``channel``'s server as the playground shows it to ``viewer``:
    those not over, soonest first, with whether they pressed Interested."""
    found = sorted(
        (
            e
            for e in world.scheduled_events.values()
            if e.guild_id == channel.guild_id and e.status in (SCHEDULED, ACTIVE)
        ),
        key=lambda e: e.start,
    )
    return [
        {
            "id": str(e.id),
            "name": e.name,
            "start": int(_when(e.start) or 0),
            "live": e.status == ACTIVE,
            "description": e.description or "",
            "interested": viewer.id in e.interested,
            "count": len(e.interested),
        }
        for e in found
    ]
