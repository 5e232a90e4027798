"""Tournaments on Discord's calendar: each tournament is a guild scheduled event, so
Discord lists it in the server's events and reminds whoever pressed *Interested*.

The event reflects what the domain says changed (:mod:`bot.services.tournaments.calendar`):
created with the tournament (external, its place the sign-up channel's link), moved
with the start time, started, paused and resumed (its description says so), cancelled,
or completed with the winner in its description. One event per tournament, not one per
round: the server's event list stays readable, and Discord's reminder is for the start.

Each change is carried out in the background, in order per tournament; Discord refusing
or failing is logged and changes nothing of the tournament. Without Create Events there
is no event, and the organiser is told why when they create the tournament
(:func:`missing_event_text`).

Who presses *Interested* on an open tournament's event is offered the sign-up by DM
(where they allow DMs): the gateway's GUILD_SCHEDULED_EVENT_USER_ADD (the Guild
Scheduled Events intent, in discord.py's default intents). discord.py drops that event
for a person it has not cached, which without the members intent is most people, so
the bot reads it as it arrives (:meth:`DiscordCalendar.listen`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.services.records import Tournament, TournamentStatus
from bot.services.tournaments.calendar import Change
from bot.services.tournaments.plan import TournamentPlan
from bot.ui.language import for_everyone, server_locale
from i18n import _, ships, speaking

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

# Discord's scheduled events (resources/guild-scheduled-event)
GUILD_ONLY, EXTERNAL = 2, 3
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
USER_ADD = "GUILD_SCHEDULED_EVENT_USER_ADD"
DESCRIPTION = 1000  # characters of an event's description
AHEAD = 3600.0  # an event with no start time of its own is put down an hour ahead
LENGTH = 2 * 3600.0  # how long an event whose length cannot be told is listed for


def place_of(t: Tournament) -> str:
    """The sign-up channel's link: an external event's location."""
    return f"https://discord.com/channels/{t.guild_id}/{t.channel_id}"


def times_of(plan: TournamentPlan, now: float) -> tuple[float, float]:
    """When the event is listed to start and end: the start the organiser set (else an
    hour ahead), and as long as its rounds' times or its arena's window say."""
    start = plan.start_at if plan.start_at is not None and plan.start_at > now else now + AHEAD
    if plan.arena_minutes is not None:
        length = plan.arena_minutes * 60.0
    elif plan.round_minutes is not None and plan.rounds:
        length = plan.round_minutes * 60.0 * plan.rounds
    else:
        length = LENGTH
    return start, start + length


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


def missing_event_text(name: str) -> str:
    return _(
        "📅 **{name}** is not listed in the server's events: I lack the **Create Events** "
        "permission here. The tournament runs as usual; an admin can grant it under "
        "**Server Settings → Roles** for Crosshairs, for the next one.",
        name=name,
    )


class DiscordCalendar(commands.Cog):
    """Keeps each tournament's scheduled event in step with it, and offers the sign-up
    to whoever is interested."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        self.service = bot.env.tournaments
        self._order: dict[int, asyncio.Lock] = {}
        self._underway: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.service.calendar.watch(self.changed)
        self.listen()

    async def changed(self, tid: int, change: Change) -> None:
        """Heard from the domain: reflected in the background, in order per tournament
        (a lock's waiters go in the order they came)."""
        task = self.bot.spawn(self._reflect(tid, change))
        self._underway.add(task)
        task.add_done_callback(self._underway.discard)

    async def _reflect(self, tid: int, change: Change) -> None:
        async with self._order.setdefault(tid, asyncio.Lock()):
            try:
                await self._apply(tid, change)
            except discord.HTTPException as exc:
                log.warning("tournament %s: its event was not %s (%s)", tid, change, exc)
            except Exception:
                log.exception("tournament %s: its event was not %s", tid, change)

    async def _apply(self, tid: int, change: Change) -> None:
        t = await self.service.registration.get(tid)
        guild = self.bot.get_guild(t.guild_id)
        if guild is None:
            return
        plan = TournamentPlan.from_json(t.settings_json)
        with for_everyone(self.bot, t.guild_id):
            description = await self._description(t, plan)
        http = self.bot.http
        if change is Change.CREATED:
            if not guild.me.guild_permissions.create_events:
                return  # the organiser is told as the tournament is created
            start, end = times_of(plan, self.bot.env.clock.now())
            made = await http.create_guild_scheduled_event(
                guild.id,
                name=t.name,
                description=description,
                privacy_level=GUILD_ONLY,
                entity_type=EXTERNAL,
                entity_metadata={"location": place_of(t)},
                scheduled_start_time=iso(start),
                scheduled_end_time=iso(end),
            )
            await self.service.calendar.remember(tid, int(made["id"]))
            return
        event_id = await self.service.calendar.entry_of(tid)
        if event_id is None:
            return
        status = int((await http.get_scheduled_event(guild.id, event_id, False))["status"])
        if status in (COMPLETED, CANCELED):  # Discord changes an ended event no more
            return
        fields: dict[str, Any] = {"description": description}
        if change is Change.MOVED and status == SCHEDULED:
            start, end = times_of(plan, self.bot.env.clock.now())
            fields |= {"scheduled_start_time": iso(start), "scheduled_end_time": iso(end)}
        if t.status is TournamentStatus.RUNNING and status == SCHEDULED:
            fields["status"] = ACTIVE
        elif t.status is TournamentStatus.CANCELLED:
            fields["status"] = CANCELED if status == SCHEDULED else COMPLETED
        elif t.status is TournamentStatus.FINISHED:
            if status == SCHEDULED:  # only a started event can be completed
                await http.edit_scheduled_event(guild.id, event_id, status=ACTIVE)
            fields["status"] = COMPLETED
        await http.edit_scheduled_event(guild.id, event_id, **fields)

    async def _description(self, t: Tournament, plan: TournamentPlan) -> str:
        lines = [
            _(
                "A Crosshairs tournament (#{id}): sign up in its channel, linked as its place, "
                "before it starts. Press Interested and the bot sends you the sign-up.",
                id=t.id,
            )
        ]
        if t.status is TournamentStatus.FINISHED:
            ranked = await self.service.rounds.standings(t.id)
            first = [line.user_id for line in ranked if line.place == 1]
            names = await self.service.teams.entrant_names(t.id, first)
            winners = ", ".join(names.get(u, "?") for u in first)
            lines.insert(0, _("🏆 Over. Winner: {winners}", winners=winners))
        elif t.status is TournamentStatus.CANCELLED:
            lines.insert(0, _("Cancelled by the organiser."))
        elif plan.paused:
            lines.insert(0, _("⏸️ Paused by the organiser: no new round opens for now."))
        return "\n".join(lines)[:DESCRIPTION]

    # ---------------------------------------------------------------- interested

    def listen(self) -> None:
        """Hear GUILD_SCHEDULED_EVENT_USER_ADD as it arrives, whether or not discord.py
        knows the person (it drops the event for anyone it has not cached)."""
        parsers: dict[str, Callable[[Any], None]] = self.bot._connection.parsers
        parse = parsers[USER_ADD]

        def user_add(data: Any) -> None:
            parse(data)
            self.bot.spawn(
                self.interested(
                    int(data["guild_id"]),
                    int(data["guild_scheduled_event_id"]),
                    int(data["user_id"]),
                )
            )

        parsers[USER_ADD] = user_add

    async def interested(self, guild_id: int, event_id: int, user_id: int) -> None:
        """Offer an open tournament's sign-up to someone who pressed Interested on its
        event, by DM, in their language (else the server's)."""
        try:
            tid = await self.service.calendar.tournament_of(event_id)
            if tid is None:
                # Discord tells of interest as soon as the event exists, maybe before
                # the bot has noted whose it is: wait for what is being noted, and read
                # again even if nothing is any more (it may have been noted meanwhile)
                if self._underway:
                    await asyncio.wait(list(self._underway))
                tid = await self.service.calendar.tournament_of(event_id)
            if tid is None:
                return
            t = await self.service.registration.get(tid)
            if t.guild_id != guild_id or t.status is not TournamentStatus.OPEN:
                return
            if user_id in await self.service.registration.entrants(tid):
                return
            own = (await self.bot.env.locales.of([user_id])).get(user_id)
            guild = self.bot.get_guild(guild_id)
            with speaking(own if ships(own) else server_locale(self.bot, guild_id)):
                text = _(
                    "📅 You are interested in **{name}** on {server}. Sign up in <#{channel}> "
                    "({link}): press **Join** under its sign-up.",
                    name=t.name,
                    server=guild.name if guild is not None else "?",
                    channel=t.channel_id,
                    link=place_of(t),
                )
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:  # DMs closed, or the person is gone
            log.info("no sign-up DM to %s (%s)", user_id, exc)
        except Exception:
            log.exception("the sign-up was not offered to %s", user_id)


async def setup(bot: CrosshairsBot) -> None:
    await bot.add_cog(DiscordCalendar(bot))
