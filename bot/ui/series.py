"""Achievement series in Discord: ``/crosshairs-series start|status|handicap|stop``, the
card announcements, and the desk that runs a series' games one after another.

Discord does not let a group and a command share a name at one level, so the issue's
``/crosshairs series @opponent games:3`` is ``/crosshairs-series start opponent:@x
games:3`` here (a top-level command of its own, for room: docs/series.md). A series
plays in one thread: each game opens there with the cards still in the pool, every claim
is announced with the card's picture the moment it happens, and after each game the
:class:`SeriesDesk` posts the scoreboard and starts the next game, or names the winner
after the last. docs/series.md has the whole flow.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.services import jobs
from bot.services.events import GameBooked, MatchAborted, nonce
from bot.services.live import LiveMatch
from bot.services.manager import Games
from bot.services.once import IN_FLIGHT
from bot.services.pictures import cards_words, scoreboard_words
from bot.services.records import Series, SeriesStatus
from bot.services.series import AchievementSeries, SeriesPlan
from bot.services.workers import Workers
from bot.ui.board import open_table
from bot.ui.commands import top_level
from bot.ui.context import bot_of
from bot.ui.files import picture
from bot.ui.language import for_everyone
from bot.ui.text import name_of
from bot.ui.thread import match_channel
from bot.ui.walls import of_this_server, the_one_here
from competition.ratings import MAX_HANDICAP
from i18n import N_, _, n_
from render.scoreboard import ScoreRow
from rules.achievements import CARDS
from rules.modes import MODES
from rules.words.common import join

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

series = top_level(
    "crosshairs-series", "Crosshairs achievement series: several games, one pool of cards"
)

MODE_CHOICES = [app_commands.Choice(name=m.title, value=m.key) for m in MODES.values()][:25]

STATUS_WORDS = {
    SeriesStatus.ACTIVE: N_("active"),
    SeriesStatus.FINISHED: N_("finished"),
    SeriesStatus.ABANDONED: N_("abandoned"),
}


# ---------------------------------------------------------------- pictures


def side_rows(series: Series) -> list[ScoreRow]:
    """The scoreboard rows in standing order, by the rules' tie-breaks."""
    standings = AchievementSeries.standings(series)
    names = AchievementSeries.side_names(series)
    kept: dict[str, list[str]] = {}
    for card, side in standings.kept.items():
        kept.setdefault(side, []).append(card)
    return [
        ScoreRow(
            name=names[int(side)],
            wins=standings.wins[side],
            points=standings.points[side],
            kept=tuple(c for c in CARDS if c in kept.get(side, [])),
            leader=side in standings.leaders,
        )
        for side in standings.order
    ]


async def scoreboard_file(workers: Workers, series: Series) -> discord.File:
    played, planned = series.games_played, series.games_planned
    names = AchievementSeries.side_names(series)
    players = _(" vs ").join(names[s] for s in sorted(names))
    title = _("Series #{id} · {players}", id=series.id, players=players)
    if series.status is SeriesStatus.FINISHED:
        subtitle = n_("Final standings after {n} game", "Final standings after {n} games", played)
    else:
        subtitle = _("After game {played} of {planned}", played=played, planned=planned)
    rows, pool = side_rows(series), series.current_pool
    png = await workers.run(jobs.draw_scoreboard, title, rows, subtitle, pool, i18n.current())
    words = scoreboard_words(title, rows, subtitle, pool)
    return picture(png, f"series-{series.id}.png", words)


def status_text(series: Series) -> str:
    """The series in words: what /crosshairs-series status answers."""
    plan = SeriesPlan.from_json(series.settings_json)
    names = AchievementSeries.side_names(series)
    standings = AchievementSeries.standings(series)
    game = _(
        "game {number} of {planned}",
        number=min(series.games_played + 1, series.games_planned),
        planned=series.games_planned,
    )
    head = _("**Series #{id}**", id=series.id)
    lines = [f"{head} · {_(MODES[series.mode].title)} · {game} · {_(STATUS_WORDS[series.status])}"]
    for side in standings.order:
        kept = [_(CARDS[c].name) for c, who in standings.kept.items() if who == side]
        won = _("{n} won", n=standings.wins[side])
        points = n_("{n} point", "{n} points", standings.points[side])
        lines.append(
            f"• **{names[int(side)]}**: {won}, {points}" + (f" ({', '.join(kept)})" if kept else "")
        )
    handicaps = [f"{plan.names[p.position]} {p.handicap}" for p in series.players if p.handicap]
    if handicaps:
        lines.append(handicap_line(", ".join(handicaps), plan.rate_handicapped))
    pool = ", ".join(f"{_(CARDS[c].name)} ({CARDS[c].points})" for c in series.current_pool)
    lines.append(_("Cards still to be won: {cards}", cards=pool or _("none")))
    if series.status is SeriesStatus.FINISHED:
        lines.append(winner_line(series))
    return "\n".join(lines)


def handicap_line(given: str, rated: bool) -> str:
    if rated:
        return _("Handicap tokens: {given} (rated)", given=given)
    return _("Handicap tokens: {given} (unrated)", given=given)


def winner_line(series: Series) -> str:
    standings = AchievementSeries.standings(series)
    names = AchievementSeries.side_names(series)
    leaders = [names[int(s)] for s in standings.leaders]
    if len(leaders) == 1:
        return "🏆 " + _("**{who}** wins the series!", who=leaders[0])
    return "🏆 " + _("The series is shared by **{who}**.", who=join(leaders))


# ---------------------------------------------------------------- commands


async def _series_here(interaction: discord.Interaction, series_id: int | None) -> Series:
    bot = bot_of(interaction)
    service = bot.env.series
    if series_id is not None:
        return of_this_server(interaction, await service.find(series_id), N_("series"), series_id)
    channel = interaction.channel
    if channel is not None:
        live = await bot.games.by_thread(channel.id)
        found = None if live is None else await service.series_of_match(live.id)
        if found is not None:
            return found[0]
    return the_one_here(
        await service.active_in(interaction.guild_id),
        N_("no series is running here"),
        N_("several series are running ({numbers}): give the series number"),
    )


@series.command(name="status", description="Standings, cards and handicaps of a series")
@app_commands.describe(series_id="The series number (default: this thread's series)")
async def status(interaction: discord.Interaction, series_id: int | None = None) -> None:
    found = await _series_here(interaction, series_id)
    await interaction.response.defer(thinking=True)
    with for_everyone(bot_of(interaction), found.guild_id):
        text, board = status_text(found), await scoreboard_file(bot_of(interaction).workers, found)
    await interaction.followup.send(text, file=board)


@series.command(name="handicap", description="Organiser: change a player's handicap tokens")
@app_commands.describe(
    player="The player", tokens="Height tokens from the next game on", series_id="Series number"
)
async def handicap(
    interaction: discord.Interaction,
    player: discord.User,
    tokens: app_commands.Range[int, 0, MAX_HANDICAP],
    series_id: int | None = None,
) -> None:
    found = await _series_here(interaction, series_id)
    await interaction.response.defer(thinking=True)  # before the write
    changed = await bot_of(interaction).env.series.set_handicap(
        found.id, interaction.user.id, player.id, tokens
    )
    with for_everyone(bot_of(interaction), found.guild_id):
        said = n_(
            "{who} gets {n} handicap token from the next game of series #{id} on.",
            "{who} gets {n} handicap tokens from the next game of series #{id} on.",
            tokens,
            who=name_of(player),
            id=changed.id,
        )
    await interaction.followup.send(said)


@series.command(name="stop", description="Organiser: call the series off after this game")
@app_commands.describe(series_id="Series number (default: this thread's series)")
async def stop(interaction: discord.Interaction, series_id: int | None = None) -> None:
    found = await _series_here(interaction, series_id)
    with IN_FLIGHT.claim(("series-stop", found.id), _("the series is already being called off")):
        await interaction.response.defer(thinking=True)  # before the write
        await bot_of(interaction).env.series.abandon(found.id, interaction.user.id)
    with for_everyone(bot_of(interaction), found.guild_id):
        said = _("Series #{id} is called off; no further games will start.", id=found.id)
    await interaction.followup.send(said)


# ---------------------------------------------------------------- the desk


class SeriesDesk(commands.Cog):
    """Runs series between games: it answers a series game booked
    (:class:`GameBooked`, after the game's final board) with the scoreboard and the next
    game, and a series game called off (:class:`MatchAborted`) with a replay."""

    def __init__(
        self,
        bot: CrosshairsBot,
        games: Games,
        series: AchievementSeries,
    ) -> None:
        self.bot = bot
        self.games = games
        self.series = series
        self._locks: dict[int, asyncio.Lock] = {}

    async def start_next(self, series_id: int, target: discord.abc.Messageable) -> None:
        """Start the series' next game in ``target`` unless it has already started."""
        async with self._locks.setdefault(series_id, asyncio.Lock()):
            current, live = await self.series.start_game(series_id)
            if live.record.board_message_id is not None:
                return  # already opened: a repeated event
            with for_everyone(self.bot, current.guild_id):
                await self._open_game(current, live, target)

    async def _open_game(
        self, current: Series, live: LiveMatch, target: discord.abc.Messageable
    ) -> None:
        """The game's header, the cards in play and the game itself, posted in ``target``."""
        game_no = next(g.game_no for g in current.games if g.match_id == live.id)
        pool = current.current_pool
        header = "🎴 " + _(
            "**Series #{id} — game {number} of {planned}**",
            id=current.id,
            number=game_no,
            planned=current.games_planned,
        )
        listed = ", ".join(f"{_(CARDS[c].name)} ({CARDS[c].points})" for c in pool)
        lines = [_("Cards in play: {cards}", cards=listed or _("none left"))]
        handicaps = live.game.settings.handicaps
        if any(handicaps):
            rated = SeriesPlan.from_json(current.settings_json).rate_handicapped
            given = ", ".join(f"{live.names[s]} {h}" for s, h in enumerate(handicaps) if h)
            lines.append(handicap_line(given, rated))
        if pool:
            cards = tuple(CARDS[c] for c in pool)
            in_play = _("Cards in play")
            sheet = await self.bot.workers.run(jobs.draw_cards, cards, in_play, i18n.current())
            words = cards_words(cards, in_play)
            await target.send(header, file=picture(sheet, "cards.png", words))
        else:
            await target.send(header)
        await open_table(self.bot, live, target, "\n".join(lines))

    async def finish_half_done(self) -> None:
        """At start-up: carry on every active series a crash stopped between two games
        (its last game finished but not booked, or booked but the next not opened)."""
        for series_id in await self.series.active_ids():
            try:
                current = await self.series.get(series_id)
                if not self.games.shards.owns(current.guild_id):
                    continue  # another process's: it carries it on
                running = next((g for g in current.games if g.winners is None), None)
                if running is not None and running.match_id is not None:
                    live = await self.games.get(running.match_id)
                    if live.over or live.record.board_message_id is not None:
                        # being played; or ended, and the end's own record (shown at
                        # start-up before this) carries the series on
                        continue
                elif current.games_played >= current.games_planned:
                    await self.series.mark_finished(series_id)
                    continue
                target_id = current.thread_id or current.channel_id
                target = self.bot.get_channel(target_id) or await self.bot.fetch_channel(target_id)
                assert isinstance(target, discord.abc.Messageable)
                await self.start_next(series_id, target)
            except Exception:  # one series must not hold up the others
                log.exception("series %s: could not carry on after a restart", series_id)

    async def game_booked(self, event: GameBooked) -> None:
        """After a series game's final board: the scoreboard, then the next game (or the
        winner). Each is shown once, even when a restart has this end shown again."""
        live = event.match
        with for_everyone(self.bot, live.record.guild_id):
            await self._game_booked(event)

    async def _game_booked(self, event: GameBooked) -> None:
        live, current = event.match, event.series
        channel = await match_channel(self.bot, live)

        async def scoreboard(post_nonce: str) -> None:
            returned = ", ".join(_(CARDS[c].name) for c in event.returned)
            text = "📋 " + _(
                "Series #{id} after game {number}.", id=current.id, number=event.game_no
            )
            if returned:
                text += " " + _("Back to the pool: {cards}.", cards=returned)
            await channel.send(
                text, file=await scoreboard_file(self.bot.workers, current), nonce=post_nonce
            )
            if current.status is SeriesStatus.FINISHED:
                await channel.send(winner_line(current), nonce=nonce(live.id, "winner"))

        await self.games.events.once(live.id, "scoreboard", scoreboard)
        if current.status is SeriesStatus.ACTIVE:
            await self.start_next(current.id, channel)

    async def match_aborted(self, event: MatchAborted) -> None:
        """A series game called off is played again: in its thread, or in a new one
        if a moderator deleted it. With its channel gone too, or the bot removed from
        the server, the series has nowhere to play and stops (docs/admins.md)."""
        live = event.match
        found = await self.series.series_of_match(live.id)
        if found is None or found[0].status is not SeriesStatus.ACTIVE:
            return
        current, game_no = found
        place = await self._place(current)
        if place is None:
            # Stopped, not left active: nothing would ever be able to post its next game.
            await self.series.stop_homeless(current.id)
            log.info("series %s stopped: its channel is gone", current.id)
            return
        with for_everyone(self.bot, current.guild_id):
            said = _(
                "Game {number} of series #{id} was aborted: it is played again.",
                number=game_no,
                id=current.id,
            )
        await place.send(f"🔁 {said}")
        await self.start_next(current.id, place)

    async def _place(self, current: Series) -> discord.abc.Messageable | None:
        """Where the series plays on: its thread; a new thread in its channel if that
        one was deleted; None if the channel is gone or the bot may no longer see it."""
        thread = await self._reachable(current.thread_id)
        if thread is not None:
            return thread
        channel = await self._reachable(current.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        names = SeriesPlan.from_json(current.settings_json).names
        try:
            with for_everyone(self.bot, current.guild_id):
                name = _("Series: {players}", players=_(" vs ").join(names))
            opened = await channel.create_thread(
                name=name[:90],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            log.info("series %s: no new thread (%s)", current.id, exc)
            return None
        await self.series.move_to_thread(current.id, opened.id)
        return opened

    async def _reachable(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        try:
            found = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None
        return found if isinstance(found, discord.abc.Messageable) else None


async def setup(bot: CrosshairsBot) -> None:
    bot.tree.add_command(series)
