"""A tournament's rounds in Discord: :class:`TournamentDesk` opens rounds, gives every
pairing its thread and series (through the series desk), books results when series end,
posts standings and brackets, and starts events whose start time has come."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot.services.clock import Clock
from bot.services.events import EventBus, PairingBooked, nonce
from bot.services.jobs import draw_bracket, draw_standings
from bot.services.pictures import bracket_words, standings_words
from bot.services.records import StoredPairing, Tournament, TournamentStatus
from bot.services.tournaments.plan import ELIMINATION, Advance, Tick, TournamentPlan
from bot.services.tournaments.service import Tournaments
from bot.services.tournaments.teams import Team
from bot.ui.files import picture
from bot.ui.language import for_everyone
from bot.ui.series import SeriesDesk
from bot.ui.text import MESSAGE
from bot.ui.tournaments.board import ArenaBoards
from competition.ratings import display_of
from competition.standings import TieBreak
from i18n import N_, _, current
from render.tournament import BracketBox, StandingRow
from rules.words.common import join

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


log = logging.getLogger(__name__)

TIEBREAK_LABELS = {
    TieBreak.BUCHHOLZ: N_("Buchholz"),
    TieBreak.MEDIAN_BUCHHOLZ: N_("Median B."),
    TieBreak.SONNEBORN_BERGER: N_("S-B"),
    TieBreak.HEAD_TO_HEAD: N_("Head-to-head"),
    TieBreak.RATING: N_("Rating"),
}


def _shown(tiebreak: TieBreak, value: float) -> float:
    """A tie-break as players read it: the rating one as the shown rating, not mu."""
    return float(display_of(value)) if tiebreak is TieBreak.RATING else value


class TournamentDesk(commands.Cog):
    """Opens rounds, gives every pairing its thread and series, books results when
    series end, and starts events whose start time has come."""

    def __init__(
        self,
        bot: CrosshairsBot,
        service: Tournaments,
        series: SeriesDesk,
        events: EventBus,
        clock: Clock,
        interval: float,
    ) -> None:
        self.bot = bot
        self.service = service
        self.series = series
        self.events = events
        self.clock = clock
        self.boards = ArenaBoards(service, clock)
        self.schedule.change_interval(seconds=interval)

    async def cog_load(self) -> None:
        self.schedule.start()
        self.bot.spawn(self._resume())

    async def cog_unload(self) -> None:
        self.schedule.cancel()

    async def _resume(self) -> None:
        """After a restart: book what finished meanwhile and carry on every event."""
        await self.bot.wait_until_ready()
        guilds = [g.id for g in self.bot.guilds]
        try:
            for tid in await self.service.rounds.resume(guilds):
                await self.publish(tid, await self.service.rounds.advance(tid))
                await self.start_pairings(tid)
            for tid in await self.service.rounds.unannounced(guilds):  # the process died first
                await self.publish(tid, Advance([], True))
        except Exception:
            log.exception("resuming tournaments failed")

    @tasks.loop(seconds=20)
    async def schedule(self) -> None:
        """Start events whose start time has come, and run the round clock of the
        running ones (reminders, no-shows, rounds opening at their time)."""
        now = self.clock.now()
        for guild in self.bot.guilds:
            try:
                for t in await self.service.registration.in_guild(
                    guild.id, [TournamentStatus.OPEN]
                ):
                    start_at = TournamentPlan.from_json(t.settings_json).start_at
                    if start_at is not None and start_at <= now:
                        await self.begin(t.id)
                for t in await self.service.registration.in_guild(
                    guild.id, [TournamentStatus.RUNNING]
                ):
                    await self.post_tick(t, await self.service.times.tick(t.id))
            except Exception:  # the loop must outlive one bad event
                log.exception("the tournament clock failed in guild %s", guild.id)

    async def post_tick(self, t: Tournament, tick: Tick) -> None:
        """Post what the round clock did: reminders, no-show forfeits, rounds opened."""
        with for_everyone(self.bot, t.guild_id):
            await self._post_tick(t, tick)

    async def _post_tick(self, t: Tournament, tick: Tick) -> None:
        channel = await self._channel(t)
        times = TournamentPlan.from_json(t.settings_json).times
        if tick.reminded and times is not None:
            when = int(times.set_time(tick.round_no).timestamp())
            who = " ".join(f"<@{u}>" for u in tick.reminded)
            await channel.send(
                _(
                    "⏰ **{name}** — round {round} opens {when}. {who}",
                    name=t.name,
                    round=tick.round_no,
                    when=f"<t:{when}:R>",
                    who=who,
                )
            )
        for update in tick.updates:
            await self.bot.env.life.after(update)
        if tick.forfeited:
            names = await self._names([pp.user_id for p in tick.forfeited for pp in p.players])
            lines = [
                _(
                    "📝 {name} round {round}, table {table}: {result} — no-show",
                    name=t.name,
                    round=p.round_no,
                    table=p.table_no,
                    result=_decided_text(p, names),
                )
                for p in tick.forfeited
            ]
            await channel.send("\n".join(lines))
        await self.publish(t.id, tick.advanced)
        if t.format == "arena":
            await self.boards.refresh(t.id, channel, flush=True)

    @schedule.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _channel(self, t: Tournament) -> discord.abc.Messageable:
        channel = self.bot.get_channel(t.channel_id) or await self.bot.fetch_channel(t.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _names(self, user_ids: list[int]) -> dict[int, str]:
        return await self.service.rounds.names(user_ids)

    async def begin(self, tid: int) -> None:
        """Start an event: close check-in (naming the no-shows), seed, open round 1."""
        t = await self.service.registration.get(tid)
        channel = await self._channel(t)
        with for_everyone(self.bot, t.guild_id):
            if TournamentPlan.from_json(t.settings_json).check_in:
                await channel.send(
                    no_shows_text(await self.service.registration.close_check_in(tid))
                )
            advanced = await self.service.registration.start(tid)
            await channel.send(_("🏁 **{name}** starts!", name=t.name))
        await self.publish(tid, advanced)

    async def publish(self, tid: int, advanced: Advance) -> None:
        """Post what an advance did: for each round opened, the standings so far, the
        pairings (pinging the players) and their threads; at the end, the winner. In the
        server's language: everyone there reads it."""
        t = await self.service.registration.get(tid)
        with for_everyone(self.bot, t.guild_id):
            await self._publish(t, advanced)

    async def _publish(self, t: Tournament, advanced: Advance) -> None:
        tid = t.id
        channel = await self._channel(t)
        arena = t.format == "arena"
        teams = await self.service.teams.entered(tid)  # a team is pinged as all its members
        for opened in advanced.opened:
            if opened.round_no > 1 and not arena:
                await self.post_tables(t, opened.round_no - 1)
            # the threads first, so that each table's line can link its own
            threads = await self.start_pairings(tid) if opened.to_play else {}
            tables = [
                _(" v ").join(_mentions(pp.user_id, teams) for pp in p.players)
                + (f" <#{threads[p.id]}>" if p.id in threads else "")
                for p in opened.to_play
            ]
            if arena:
                for post in posts(tables, f"⚔️ **{t.name}**: ", " · "):
                    await channel.send(post)
                continue
            users = [pp.user_id for p in opened.to_play + opened.decided for pp in p.players]
            names = await self._names(users)
            lines = [
                _("Table {table}: {who}", table=p.table_no, who=who)
                for p, who in zip(opened.to_play, tables, strict=True)
            ]
            for p in opened.decided:
                lines.append(
                    _("Table {table}: {who}", table=p.table_no, who=_decided_text(p, names))
                )
            head = _("📣 **{name} — round {round}**", name=t.name, round=opened.round_no)
            # a big round takes several posts, each within Discord's length limit;
            # discord.py keeps them within the channel's rate limit
            for post in posts(lines, head + "\n", "\n"):
                await channel.send(post)
        if advanced.finished:

            async def the_end() -> None:
                if arena:
                    await self.boards.refresh(tid, channel, flush=False, final=True)
                await self.post_tables(t, None)
                ranked = await self.service.rounds.standings(tid)
                winners = [f"<@{line.user_id}>" for line in ranked if line.place == 1]
                await channel.send(
                    _(
                        "🏆 **{name}** is over. Winner: {winners}!",
                        name=t.name,
                        winners=join(winners),
                    ),
                    nonce=nonce("tournament", tid, "winner"),
                )

            # every advance of a finished event says so (a restart's, a second press's)
            await self.service.rounds.announce_end(tid, the_end)

    async def start_pairings(self, tid: int) -> dict[int, int]:
        """Give every undecided pairing of the current round its thread and series
        (pairings that already have one are left as they are). Returns the thread of
        each undecided pairing that plays in one, by pairing id."""
        t = await self.service.registration.get(tid)
        channel = await self._channel(t)
        threads: dict[int, int] = {}
        for p in await self.service.rounds.current_round(tid):
            if p.decided:
                continue
            if p.series_id is not None:
                thread_id = (await self.series.series.get(p.series_id)).thread_id
                if thread_id is not None:
                    threads[p.id] = thread_id
                continue
            names = await self._names([pp.user_id for pp in p.players])
            with for_everyone(self.bot, t.guild_id):
                title = _(
                    "{name} R{round} T{table}: {players}",
                    name=t.name,
                    round=p.round_no,
                    table=p.table_no,
                    players=_(" v ").join(names.get(pp.user_id, "?") for pp in p.players),
                )
            target: discord.abc.Messageable = channel
            thread_id = None
            if isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=title[:90], type=discord.ChannelType.public_thread
                )
                target, thread_id = thread, thread.id
                threads[p.id] = thread.id
            series = await self.service.rounds.start_pairing(
                p.id, tid, channel_id=t.channel_id, thread_id=thread_id
            )
            await self.series.start_next(series.id, target)
        return threads

    async def post_tables(self, t: Tournament, after_round: int | None) -> None:
        """The standings after a round (None: the final ones), and the bracket."""
        channel = await self._channel(t)
        head = (
            _("📊 **{name}** standings (final)", name=t.name)
            if after_round is None
            else _("📊 **{name}** standings (after round {round})", name=t.name, round=after_round)
        )
        # the final ones are part of the event's end, which a restart announces again
        when = "final" if after_round is None else after_round
        await channel.send(
            head + "\n" + await self.standings_text(t.id),
            file=await self.standings_file(t.id),
            nonce=nonce("tournament", t.id, "standings", when),
        )
        bracket = await self.bracket_file(t.id)
        if bracket is not None:
            await channel.send(
                _("**{name}**: the bracket", name=t.name),
                file=bracket,
                nonce=nonce("tournament", t.id, "bracket", when),
            )

    async def standings_text(self, tid: int) -> str:
        """The standings in words too, so they can be read (and searched) without the
        picture."""
        lines = await self.service.rounds.standings(tid)
        names = await self.service.teams.entrant_names(tid, [line.user_id for line in lines])
        return "\n".join(
            f"{line.place}. {names.get(line.user_id, '?')} {_points(line.score)}"
            + (" " + _("(dropped)") if line.dropped else "")
            for line in lines
        )

    async def standings_file(self, tid: int) -> discord.File:
        t = await self.service.registration.get(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        lines = await self.service.rounds.standings(tid)
        names = await self.service.teams.entrant_names(tid, [line.user_id for line in lines])
        order = plan.order if t.format not in (*ELIMINATION, "arena") else ()
        rows = [
            StandingRow(
                line.place,
                names.get(line.user_id, str(line.user_id)),
                line.score,
                tuple(_shown(tb, line.tiebreaks.get(tb, 0.0)) for tb in order),
                line.dropped,
            )
            for line in lines
        ]
        columns = [_(TIEBREAK_LABELS[tb]) for tb in order]
        title = _("{name} — standings", name=t.name)
        png = await self.bot.workers.run(draw_standings, rows, title, columns, current())
        return picture(png, "standings.png", standings_words(title, rows, columns))

    async def bracket_file(self, tid: int) -> discord.File | None:
        bracket = await self.service.rounds.bracket(tid)
        if bracket is None:
            return None
        t = await self.service.registration.get(tid)
        names = await self._names([int(e) for e in bracket.entrants])

        def named(player: str | None) -> str | None:
            return None if player is None else names.get(int(player), player)

        boxes = [
            BracketBox(m.id, m.side, m.round, named(m.first), named(m.second), named(m.winner))
            for m in bracket.matches()
        ]
        title = _("{name} — bracket", name=t.name)
        png = await self.bot.workers.run(draw_bracket, boxes, title, current())
        return picture(png, "bracket.png", bracket_words(title, boxes))

    async def after_results(self, tid: int, updates: list[Any]) -> None:
        """After an organiser changed results: show resigned games, then open what is due."""
        for update in updates:
            await self.bot.env.life.after(update)
        await self.publish(tid, await self.service.rounds.advance(tid))

    async def pairing_booked(self, decided: PairingBooked) -> None:
        """A tournament series' result booked: its line, then open what it makes due.
        The line is shown once, even when a restart has this end shown again."""
        live = decided.match
        t = decided.tournament
        channel = await self._channel(t)

        async def booking(post_nonce: str) -> None:
            names = await self._names([pp.user_id for pp in decided.pairing.players])
            with for_everyone(self.bot, t.guild_id):
                said = _(
                    "📝 {name} round {round}, table {table}: {result}",
                    name=t.name,
                    round=decided.pairing.round_no,
                    table=decided.pairing.table_no,
                    result=_decided_text(decided.pairing, names),
                )
            await channel.send(said, nonce=post_nonce)

        # a restart shows this end again (the booking above is idempotent): the line once
        await self.events.once(live.id, "booking", booking)
        if t.format == "arena":
            # Pair whoever is waiting at once, then show the result on the live board.
            advanced = await self.service.rounds.advance(t.id)
            await self.publish(t.id, advanced)
            if not advanced.finished:  # the finish has drawn the final board
                with for_everyone(self.bot, t.guild_id):
                    await self.boards.refresh(t.id, channel, flush=False)
        elif decided.round_complete:
            await self.publish(t.id, await self.service.rounds.advance(t.id))


def posts(items: Sequence[str], head: str, sep: str, limit: int = MESSAGE) -> list[str]:
    """``head`` and ``items`` joined by ``sep`` in as few messages of at most ``limit``
    characters as they fit in, never splitting an item; each message after the first
    starts with the head again, so that it reads on its own."""
    found: list[str] = []
    current = ""
    for item in items:
        if current and len(current) + len(sep) + len(item) > limit:
            found.append(current)
            current = ""
        current = f"{current}{sep}{item}" if current else head + item
    return [*found, current] if current else []


def _mentions(entrant: int, teams: dict[int, Team]) -> str:
    team = teams.get(entrant)
    return f"<@{entrant}>" if team is None else " & ".join(f"<@{u}>" for u in team.members)


def no_shows_text(gone: list[int]) -> str:
    names = ", ".join(f"<@{u}>" for u in gone) or _("nobody")
    return _("Check-in closed; dropped as no-shows: {names}.", names=names)


def _points(score: float) -> str:
    """Points as players read them: 2, 2½, or 1.25 for the quarters and thirds that
    free-for-all tables pay."""
    whole, half = divmod(round(score * 2), 2)
    if abs(score * 2 - round(score * 2)) > 1e-9:
        return f"{score:.2f}"
    return f"{whole or ''}½" if half else str(whole)


def _decided_text(pairing: StoredPairing, names: dict[int, str]) -> str:
    """A decided pairing in words: a bye, a forfeit, or who scored what."""
    players = pairing.players
    if len(players) == 1:
        return _("{name} has a bye", name=names.get(players[0].user_id, "?"))
    scored = " · ".join(
        f"{names.get(pp.user_id, '?')} {_points(pp.points or 0.0)}" for pp in players
    )
    forfeit = json.loads(pairing.result_json or "{}").get("forfeit", False)
    return scored + (" " + _("(forfeit)") if forfeit else "")
