"""Tournaments in Discord: ``/crosshairs tournament …``, the registration message with
its buttons, and the desk that opens rounds and books results.

Who may organise: members with the **Manage Server** permission, or with a role named
``Tournament Organiser`` (:data:`ORGANISER_ROLE`, case-insensitive), so a server can
hand events to people it would not trust with its settings. Players need nothing.

The flow (docs/tournaments.md, "Running a tournament in Discord"): ``create`` posts a
registration message with Join, Leave and Check in buttons, and Close check-in and
Start for the organiser. Each round is posted with its pairings, pinging the players;
every pairing's series plays in its own thread through the series desk. When a series
ends, :class:`TournamentDesk` records the result, and when the round is complete it
posts the standings (and the bracket) and opens the next round.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.services.manager import LiveMatch, MatchError
from bot.services.tournament_plan import ELIMINATION, Advance, TournamentPlan
from bot.services.tournament_service import TournamentService
from bot.ui.buttons import show_update
from bot.ui.commands import CLOCK_CHOICES, crosshairs
from bot.ui.context import bot_of
from bot.ui.errors import report
from bot.ui.series import desk as series_desk
from competition.standings import DEFAULT_ORDER, TieBreak
from render.tournament import BracketBox, StandingRow, bracket_png, standings_png
from storage.tournaments import Pairing as StoredPairing
from storage.tournaments import Tournament, TournamentStatus

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

ORGANISER_ROLE = "tournament organiser"
TIEBREAK_LABELS = {
    TieBreak.BUCHHOLZ: "Buchholz",
    TieBreak.MEDIAN_BUCHHOLZ: "Median B.",
    TieBreak.SONNEBORN_BERGER: "S-B",
    TieBreak.HEAD_TO_HEAD: "Head-to-head",
    TieBreak.RATING: "Rating",
}

tournament = app_commands.Group(
    name="tournament",
    description="Tournaments: Swiss, round robin and elimination brackets",
    parent=crosshairs,
)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (set number of rounds)", value="swiss"),
    app_commands.Choice(name="Round robin (divisions of up to 10)", value="round-robin"),
    app_commands.Choice(name="Single elimination", value="single"),
    app_commands.Choice(name="Double elimination", value="double"),
]
MODE_CHOICES = [
    app_commands.Choice(name="Duel", value="duel"),
    *(app_commands.Choice(name=f"Tables of {n} (Swiss)", value=f"ffa{n}") for n in range(3, 7)),
]
HANDICAP_CHOICES = [
    app_commands.Choice(name="No handicaps", value="none"),
    app_commands.Choice(name="Handicap tokens from ratings", value="rating"),
]


def desk(bot: CrosshairsBot) -> TournamentDesk:
    found = bot.get_cog(TournamentDesk.__cog_name__)
    assert isinstance(found, TournamentDesk), "bot.ui.register adds the tournament desk"
    return found


def is_organiser(interaction: discord.Interaction) -> bool:
    user = interaction.user
    if interaction.permissions.manage_guild:
        return True
    roles = getattr(user, "roles", ())
    return any(role.name.lower() == ORGANISER_ROLE for role in roles)


def require_organiser(interaction: discord.Interaction) -> None:
    if not is_organiser(interaction):
        raise app_commands.CheckFailure(
            "organising a tournament needs the Manage Server permission "
            "or the Tournament Organiser role"
        )


async def _here(interaction: discord.Interaction, tid: int | None) -> Tournament:
    """The tournament meant: by number, or the one open or running in this server."""
    service = desk(bot_of(interaction)).service
    if tid is not None:
        found = await service.repo.get(tid)
        if found.guild_id != interaction.guild_id:
            raise MatchError(f"there is no tournament #{tid} here")
        return found
    live = await service.repo.in_guild(
        interaction.guild_id or 0, [TournamentStatus.OPEN, TournamentStatus.RUNNING]
    )
    if len(live) == 1:
        return live[0]
    if not live:
        raise MatchError("no tournament is open or running here")
    numbers = ", ".join(f"#{t.id}" for t in live)
    raise MatchError(f"several tournaments are on ({numbers}): give the tournament number")


# ---------------------------------------------------------------- registration


def registration_view(tid: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "checkin", "close", "start"):
        view.add_item(RegistrationButton(tid, op))
    return view


BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "checkin": ("Check in", discord.ButtonStyle.primary),
    "close": ("Close check-in", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.danger),
}


class RegistrationButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:tn:(?P<tid>\d+):(?P<op>join|leave|checkin|close|start)",
):
    def __init__(self, tid: int, op: str) -> None:
        label, style = BUTTONS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"xh:tn:{tid}:{op}"))
        self.tid = tid
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RegistrationButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._press(interaction)
        except Exception as exc:  # one place turns every failure into an answer
            await report(interaction, exc)

    async def _press(self, interaction: discord.Interaction) -> None:
        tournaments = desk(bot_of(interaction))
        service = tournaments.service
        user = interaction.user
        if self.op == "join":
            await service.join(self.tid, user.id, user.display_name)
            text = "✅ You are in. Watch this channel for check-in and your pairings."
        elif self.op == "leave":
            await service.leave(self.tid, user.id)
            text = "You have left the tournament."
        elif self.op == "checkin":
            await service.check_in(self.tid, user.id)
            text = "✅ Checked in."
        else:
            require_organiser(interaction)
            await interaction.response.defer(thinking=True)
            if self.op == "close":
                await interaction.followup.send(
                    no_shows_text(await service.close_check_in(self.tid))
                )
            else:
                await interaction.followup.send("🏁 Starting…")
                await tournaments.begin(self.tid)
            return
        await interaction.response.send_message(text, ephemeral=True)


# ---------------------------------------------------------------- commands


@tournament.command(name="create", description="Organiser: create a tournament and open entries")
@app_commands.describe(
    name="What the event is called",
    format="Swiss, round robin, single or double elimination",
    rounds="Swiss: the number of rounds",
    mode="Duels, or tables of 3 to 6 (Swiss only)",
    games="Games per pairing: a best-of-N series with achievement cards (odd)",
    third_place="Single elimination: play a third-place match",
    reset="Double elimination: a second final if the losers' champion wins the first",
    clock="Time per turn; a player whose time runs out loses the game",
    handicaps="Handicap policy for every pairing",
    check_in="Players must check in; whoever has not when check-in closes is dropped",
    start_in="Start by itself this many minutes from now (0: the organiser presses Start)",
    tiebreaks="Tie-breaks in order, comma-separated: head-to-head, buchholz, "
    "median-buchholz, sonneborn-berger, rating",
)
@app_commands.choices(format=FORMAT_CHOICES, mode=MODE_CHOICES)
@app_commands.choices(clock=CLOCK_CHOICES)
@app_commands.choices(handicaps=HANDICAP_CHOICES)
async def create(
    interaction: discord.Interaction,
    name: str,
    format: str,
    rounds: app_commands.Range[int, 0, 20] = 0,
    mode: str = "duel",
    games: app_commands.Range[int, 1, 7] = 1,
    third_place: bool = False,
    reset: bool = True,
    clock: int = 0,
    handicaps: str = "none",
    check_in: bool = False,
    start_in: app_commands.Range[int, 0, 10080] = 0,
    tiebreaks: str = "",
) -> None:
    require_organiser(interaction)
    bot = bot_of(interaction)
    order = tuple(t.strip().lower() for t in tiebreaks.split(",") if t.strip())
    plan = TournamentPlan(
        organiser=interaction.user.id,
        rounds=rounds or None,
        third_place=third_place,
        reset=reset,
        tiebreaks=order or tuple(DEFAULT_ORDER),
        clock_per_turn=float(clock) if clock else None,
        handicaps=handicaps,
        check_in=check_in,
        start_at=bot.games.clock.now() + start_in * 60 if start_in else None,
    )
    if interaction.guild_id is None or interaction.channel_id is None:
        raise MatchError("tournaments are run in a server channel")
    created = await desk(bot).service.create(
        plan,
        name=name,
        format=format,
        mode=mode,
        games=games,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
    )
    lines = [
        f"🏆 **{name}** (tournament #{created.id}) — {_format_text(created, plan)}",
        f"Each pairing plays a best of {games} series with achievement cards.",
        "Press **Join** to enter"
        + (", then **Check in** before check-in closes." if check_in else "."),
    ]
    if plan.start_at is not None:
        lines.append(f"Starts <t:{int(plan.start_at)}:R>.")
    await interaction.response.send_message("\n".join(lines), view=registration_view(created.id))


def _format_text(t: Tournament, plan: TournamentPlan) -> str:
    what = {
        "swiss": f"Swiss, {plan.rounds} rounds",
        "round-robin": "round robin",
        "single": "single elimination" + (" with a third-place match" if plan.third_place else ""),
        "double": "double elimination",
    }[t.format]
    return what + ("" if t.mode == "duel" else f", tables of {t.mode[3:]}")


@tournament.command(name="standings", description="The standings table as a picture")
@app_commands.describe(tournament_id="Tournament number (default: the one on here)")
async def standings_cmd(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found = await _here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    await interaction.followup.send(
        await desk(bot_of(interaction)).standings_text(found.id),
        file=await desk(bot_of(interaction)).standings_file(found.id),
    )


@tournament.command(name="bracket", description="The elimination bracket as a picture")
@app_commands.describe(tournament_id="Tournament number (default: the one on here)")
async def bracket_cmd(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found = await _here(interaction, tournament_id)
    if found.format not in ELIMINATION:
        raise MatchError(f"{found.name} has no bracket: it is {found.format}")
    await interaction.response.defer(thinking=True)
    file = await desk(bot_of(interaction)).bracket_file(found.id)
    assert file is not None
    await interaction.followup.send(f"**{found.name}**: the bracket", file=file)


@tournament.command(name="pause", description="Organiser: open no new round until resumed")
@app_commands.describe(tournament_id="Tournament number")
async def pause(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await _here(interaction, tournament_id)
    await desk(bot_of(interaction)).service.set_paused(found.id, True)
    await interaction.response.send_message(
        f"⏸️ **{found.name}** is paused: games in play go on, no new round opens."
    )


@tournament.command(name="resume", description="Organiser: carry on a paused tournament")
@app_commands.describe(tournament_id="Tournament number")
async def resume(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await _here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desk(bot_of(interaction))
    advanced = await tournaments.service.set_paused(found.id, False)
    await interaction.followup.send(f"▶️ **{found.name}** carries on.")
    await tournaments.publish(found.id, advanced)


@tournament.command(name="drop", description="Organiser: take a player out of the tournament")
@app_commands.describe(player="Who is dropped", tournament_id="Tournament number")
async def drop(
    interaction: discord.Interaction, player: discord.User, tournament_id: int | None = None
) -> None:
    require_organiser(interaction)
    found = await _here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desk(bot_of(interaction))
    updates = await tournaments.service.drop(found.id, player.id)
    await interaction.followup.send(
        f"{player.mention} is dropped from **{found.name}**; an unfinished pairing is "
        "forfeited to their opponent."
    )
    await tournaments.after_results(found.id, updates)


@tournament.command(name="result", description="Organiser: set or correct a pairing's result")
@app_commands.describe(
    player="One player of the pairing",
    opponent="The other player",
    outcome="Who won",
    tournament_id="Tournament number",
)
@app_commands.choices(
    outcome=[
        app_commands.Choice(name="player won", value="player"),
        app_commands.Choice(name="opponent won", value="opponent"),
        app_commands.Choice(name="draw", value="draw"),
    ]
)
async def result(
    interaction: discord.Interaction,
    player: discord.User,
    opponent: discord.User,
    outcome: str,
    tournament_id: int | None = None,
) -> None:
    require_organiser(interaction)
    found = await _here(interaction, tournament_id)
    winner = {"player": player.id, "opponent": opponent.id}.get(outcome)
    await interaction.response.defer(thinking=True)
    tournaments = desk(bot_of(interaction))
    round_no, updates = await tournaments.service.set_result(
        found.id, player.id, opponent.id, winner
    )
    said = "drawn" if winner is None else f"won by <@{winner}>"
    await interaction.followup.send(
        f"📝 Round {round_no}: {player.mention} v {opponent.mention} is {said}."
    )
    await tournaments.after_results(found.id, updates)


@tournament.command(name="repair", description="Organiser: pair the current round again")
@app_commands.describe(tournament_id="Tournament number")
async def repair(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await _here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desk(bot_of(interaction))
    advanced = await tournaments.service.repair(found.id)
    await interaction.followup.send(f"🔀 **{found.name}**: the round is paired again.")
    await tournaments.publish(found.id, advanced)


@tournament.command(name="end", description="Organiser: end the tournament now")
@app_commands.describe(tournament_id="Tournament number")
async def end(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await _here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desk(bot_of(interaction))
    await tournaments.service.end(found.id)
    await interaction.followup.send(f"🛑 **{found.name}** is over.")
    if found.status is TournamentStatus.RUNNING:
        await tournaments.publish(found.id, Advance([], True))


# ---------------------------------------------------------------- the desk


class TournamentDesk(commands.Cog):
    """Opens rounds, gives every pairing its thread and series, books results when
    series end, and starts events whose start time has come."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        self.service = TournamentService(series_desk(bot).series)
        self.schedule.change_interval(seconds=bot.config.clock_interval)

    async def cog_load(self) -> None:
        self.schedule.start()
        self.bot.spawn(self._resume())

    async def cog_unload(self) -> None:
        self.schedule.cancel()

    async def _resume(self) -> None:
        """After a restart: book what finished meanwhile and carry on every event."""
        await self.bot.wait_until_ready()
        try:
            for tid in await self.service.resume([g.id for g in self.bot.guilds]):
                await self.publish(tid, await self.service.advance(tid))
                await self.start_pairings(tid)
        except Exception:
            log.exception("resuming tournaments failed")

    @tasks.loop(seconds=20)
    async def schedule(self) -> None:
        """Start events whose start time has come."""
        now = self.bot.games.clock.now()
        try:
            for guild in self.bot.guilds:
                for t in await self.service.repo.in_guild(guild.id, [TournamentStatus.OPEN]):
                    start_at = TournamentPlan.from_json(t.settings_json).start_at
                    if start_at is not None and start_at <= now:
                        await self.begin(t.id)
        except Exception:  # the loop must outlive one bad event
            log.exception("starting scheduled tournaments failed")

    @schedule.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _channel(self, t: Tournament) -> discord.abc.Messageable:
        channel = self.bot.get_channel(t.channel_id) or await self.bot.fetch_channel(t.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _names(self, user_ids: list[int]) -> dict[int, str]:
        return await self.service.players.names(user_ids)

    async def begin(self, tid: int) -> None:
        """Start an event: close check-in (naming the no-shows), seed, open round 1."""
        t = await self.service.repo.get(tid)
        channel = await self._channel(t)
        if TournamentPlan.from_json(t.settings_json).check_in:
            await channel.send(no_shows_text(await self.service.close_check_in(tid)))
        advanced = await self.service.start(tid)
        await channel.send(f"🏁 **{t.name}** starts!")
        await self.publish(tid, advanced)

    async def publish(self, tid: int, advanced: Advance) -> None:
        """Post what an advance did: for each round opened, the standings so far, the
        pairings (pinging the players) and their threads; at the end, the winner."""
        t = await self.service.repo.get(tid)
        channel = await self._channel(t)
        for opened in advanced.opened:
            if opened.round_no > 1:
                await self.post_tables(t, f"after round {opened.round_no - 1}")
            users = [pp.user_id for p in opened.to_play + opened.decided for pp in p.players]
            names = await self._names(users)
            lines = [f"📣 **{t.name} — round {opened.round_no}**"]
            for p in opened.to_play:
                who = " v ".join(f"<@{pp.user_id}>" for pp in p.players)
                lines.append(f"Table {p.table_no}: {who}")
            for p in opened.decided:
                lines.append(f"Table {p.table_no}: {_decided_text(p, names)}")
            await channel.send("\n".join(lines))
        if advanced.opened:
            await self.start_pairings(tid)
        if advanced.finished:
            await self.post_tables(t, "final")
            ranked = await self.service.standings(tid)
            winners = [f"<@{line.user_id}>" for line in ranked if line.place == 1]
            await channel.send(f"🏆 **{t.name}** is over. Winner: {' and '.join(winners)}!")

    async def start_pairings(self, tid: int) -> None:
        """Give every undecided pairing of the current round its thread and series
        (pairings that already have one are left as they are)."""
        t = await self.service.repo.get(tid)
        channel = await self._channel(t)
        for p in await self.service.current_round(tid):
            if p.decided or p.series_id is not None:
                continue
            names = await self._names([pp.user_id for pp in p.players])
            title = f"{t.name} R{p.round_no} T{p.table_no}: " + " v ".join(
                names.get(pp.user_id, "?") for pp in p.players
            )
            target: discord.abc.Messageable = channel
            thread_id = None
            if isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=title[:90], type=discord.ChannelType.public_thread
                )
                target, thread_id = thread, thread.id
            series = await self.service.start_pairing(
                p.id, tid, channel_id=t.channel_id, thread_id=thread_id
            )
            await series_desk(self.bot).start_next(series.id, target)

    async def post_tables(self, t: Tournament, when: str) -> None:
        channel = await self._channel(t)
        await channel.send(
            f"📊 **{t.name}** standings ({when})\n" + await self.standings_text(t.id),
            file=await self.standings_file(t.id),
        )
        bracket = await self.bracket_file(t.id)
        if bracket is not None:
            await channel.send(f"**{t.name}**: the bracket", file=bracket)

    async def standings_text(self, tid: int) -> str:
        """The standings in words too, so they can be read (and searched) without the
        picture."""
        lines = await self.service.standings(tid)
        names = await self._names([line.user_id for line in lines])
        return "\n".join(
            f"{line.place}. {names.get(line.user_id, '?')} {_points(line.score)}"
            + (" (dropped)" if line.dropped else "")
            for line in lines
        )

    async def standings_file(self, tid: int) -> discord.File:
        t = await self.service.repo.get(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        lines = await self.service.standings(tid)
        names = await self._names([line.user_id for line in lines])
        order = plan.order if t.format not in ELIMINATION else ()
        rows = [
            StandingRow(
                line.place,
                names.get(line.user_id, str(line.user_id)),
                line.score,
                tuple(line.tiebreaks.get(tb, 0.0) for tb in order),
                line.dropped,
            )
            for line in lines
        ]
        columns = [TIEBREAK_LABELS[tb] for tb in order]
        png = await asyncio.to_thread(standings_png, rows, f"{t.name} — standings", columns=columns)
        return discord.File(io.BytesIO(png), filename="standings.png")

    async def bracket_file(self, tid: int) -> discord.File | None:
        bracket = await self.service.bracket(tid)
        if bracket is None:
            return None
        t = await self.service.repo.get(tid)
        names = await self._names([int(e) for e in bracket.entrants])

        def named(player: str | None) -> str | None:
            return None if player is None else names.get(int(player), player)

        boxes = [
            BracketBox(m.id, m.side, m.round, named(m.first), named(m.second), named(m.winner))
            for m in bracket.matches()
        ]
        png = await asyncio.to_thread(bracket_png, boxes, f"{t.name} — bracket")
        return discord.File(io.BytesIO(png), filename="bracket.png")

    async def after_results(self, tid: int, updates: list[Any]) -> None:
        """After an organiser changed results: show resigned games, then open what is due."""
        for update in updates:
            await show_update(self.bot, update)
        await self.publish(tid, await self.service.advance(tid))

    @commands.Cog.listener()
    async def on_crosshairs_match_finished(self, live: LiveMatch) -> None:
        decided = await self.service.match_finished(live)
        if decided is None:
            return
        t = decided.tournament
        names = await self._names([pp.user_id for pp in decided.pairing.players])
        channel = await self._channel(t)
        await channel.send(
            f"📝 {t.name} round {decided.pairing.round_no}, table {decided.pairing.table_no}: "
            + _decided_text(decided.pairing, names)
        )
        if decided.round_complete:
            await self.publish(t.id, await self.service.advance(t.id))


def no_shows_text(gone: list[int]) -> str:
    names = ", ".join(f"<@{u}>" for u in gone) or "nobody"
    return f"Check-in closed; dropped as no-shows: {names}."


def _points(score: float) -> str:
    """Points as players read them: 2, 2½, or 1.25 for the quarters and thirds that
    free-for-all tables pay."""
    whole, half = divmod(round(score * 2), 2)
    if abs(score * 2 - round(score * 2)) > 1e-9:
        return f"{score:.2f}"
    return f"{whole}½" if half else str(whole)


def _decided_text(pairing: StoredPairing, names: dict[int, str]) -> str:
    """A decided pairing in words: a bye, a forfeit, or who scored what."""
    players = pairing.players
    if len(players) == 1:
        return f"{names.get(players[0].user_id, '?')} has a bye"
    scored = " · ".join(
        f"{names.get(pp.user_id, '?')} {_points(pp.points or 0.0)}" for pp in players
    )
    forfeit = json.loads(pairing.result_json or "{}").get("forfeit", False)
    return scored + (" (forfeit)" if forfeit else "")
