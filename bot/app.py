"""The app: the bot with every feature set up, in this one place where it starts.

:func:`create_bot` builds it (tests build it too, and run it against an in-memory
Discord); :func:`run_bot` runs it with the token from the environment. As it starts, the
bot builds its services once (:class:`bot.env.Env`), then :func:`install` builds the
desks several features share, runs each feature's ``setup`` from :data:`FEATURES` and
subscribes the listeners of a match's end in the order they run. Each feature module
under ``bot.ui`` knows only the services below it; this module is the only one that
knows them all (docs/architecture.md, "Where the bot is put together").
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.config import Config, ConfigError
from bot.discord_app import CrosshairsBot, ShardedCrosshairsBot
from bot.live.board import LiveBoard
from bot.live.discord_api import DISCORD_API, DiscordApi
from bot.live.server import LiveServer
from bot.ops import configure_logging
from bot.services.clock import Clock
from bot.services.events import (
    Acted,
    ChallengeChanged,
    GameBooked,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    PairingBooked,
    RematchChanged,
    TakebackChanged,
    TurnPassed,
)
from bot.services.palettes import person_palette
from bot.services.surface import Shown
from bot.ui import (
    analysis,
    anywhere,
    challenges,
    clocks,
    closed_threads,
    commands,
    departures,
    exercise,
    glyphs,
    invites,
    leaderboard,
    learn,
    notify_setting,
    palette_setting,
    presses,
    puzzles,
    quick_pairing,
    recovery,
    rematch,
    rules_help,
    series,
    series_invites,
    setup_check,
    takeback,
    team_rooms,
    vacation,
    welcome,
)
from bot.ui.challenges import ChallengeChannel, home_of
from bot.ui.desks import Desks
from bot.ui.language import server_locale
from bot.ui.notify import TurnNotifier
from bot.ui.offers import Offers
from bot.ui.rematch import RematchThread
from bot.ui.series import SeriesDesk
from bot.ui.surfaces import Surfaces
from bot.ui.takeback import TakebackThread
from bot.ui.thread import Drawings
from bot.ui.tournaments import calendar as tournament_calendar
from bot.ui.tournaments import controls as tournament_controls
from bot.ui.tournaments import group as tournament
from bot.ui.tournaments import registration as tournament_registration
from bot.ui.tournaments import teams as tournament_teams
from bot.ui.tournaments.desk import TournamentDesk
from bot.ui.translator import CommandTranslator
from storage.errors import StorageError

Feature = Callable[[CrosshairsBot], Awaitable[None]]

# Every feature of the bot, each by its module's ``setup``: its commands (under
# /crosshairs, in this order), its persistent buttons (matched by custom id, so they
# work across restarts) and its cogs.
FEATURES: tuple[Feature, ...] = (
    commands.setup,  # /crosshairs itself, and playing and watching a match
    anywhere.setup,  # where the bot only answers: what needs it to post is refused
    presses.setup,  # the board's buttons and the cockpit
    team_rooms.setup,  # a team game's private rooms, and sharing a plan there
    invites.setup,  # lobbies
    challenges.setup,  # challenges to a duel
    quick_pairing.setup,  # /crosshairs play: anyone here, or the computer after a wait
    rematch.setup,
    takeback.setup,
    clocks.setup,  # the turn clocks
    vacation.setup,
    notify_setting.setup,  # turn DMs
    palette_setting.setup,  # board colours
    departures.setup,  # a match's thread, channel or server gone
    closed_threads.setup,  # a match's thread archived or locked
    rules_help.setup,
    welcome.setup,  # the welcome when the bot joins a server, and /crosshairs help
    leaderboard.setup,  # cards, leaderboard, profile
    analysis.setup,
    learn.setup,
    exercise.setup,  # lessons, puzzles and blunders to train on
    puzzles.setup,  # and the daily puzzle
    setup_check.setup,
    series.setup,
    series_invites.setup,
    tournament.setup,
    tournament_registration.setup,
    tournament_teams.setup,
    tournament_controls.setup,
    tournament_calendar.setup,  # each tournament a Discord scheduled event
)


async def install(bot: CrosshairsBot) -> None:
    """Set every feature up on the services the bot built as it started (``bot.env``),
    each given what it needs; then carry on what a restart left to do."""
    env = bot.env
    # The desks several features share: built here, once, and handed on.
    series_desk = SeriesDesk(bot, env.games, env.series)
    tournament_desk = TournamentDesk(
        bot,
        env.tournaments,
        series_desk,
        env.events,
        env.clock,
        env.config.clock_interval,
    )
    bot.desks = Desks(series=series_desk, tournaments=tournament_desk)
    bot.offers = Offers()
    # the previews drawn, the matches' introductions, and the boards' size
    bot.drawings = Drawings(env.config.board_pixels, env.config.preview_pixels)
    bot.surfaces = surfaces = Surfaces(bot)  # how each match is shown, chosen once per match
    bot.glyphs = await glyphs.upload(bot)  # insignia and manoeuvres as the app's emojis
    await bot.add_cog(series_desk)
    await bot.add_cog(tournament_desk)
    for setup in FEATURES:
        await setup(bot)
    # the commands' names, descriptions and choices in every shipped language (i18n)
    await bot.tree.set_translator(CommandTranslator())
    # The matches are shown on their surfaces; the computer's turns run as the bot's
    # background work.
    env.life.show_on(surfaces, bot.spawn)
    # What shows what the domain published, in this order, each event's after its
    # bookkeeping (subscribed by Env: the rating, the series game, the pairing). An
    # action: the board. A match's end: the final board with the ratings line; then,
    # the series game booked, its scoreboard and next game; then, the pairing booked,
    # the tournament's line and next round. A turn passed: the DM to whoever is to move.
    events = env.events
    shown = Shown(surfaces)
    # The live board (an Activity, bot/live) shows every action too, first: sending its
    # pages the match is quick, drawing the thread's board is not.
    palettes = env.stores.palettes
    bot.live_board = live_board = LiveBoard(
        env.games,
        env.life,
        lambda user, guild: person_palette(palettes, user, guild),
        env.rematches,
        lambda live: not anywhere.is_anywhere(bot, live),  # a thread to post an offer in
        env.takebacks,
        env.challenges,
        lambda guild, channel: home_of(bot, guild, channel),
        lambda guild: server_locale(bot, guild),
    )
    events.subscribe(MatchStarted, live_board.started)
    events.subscribe(Acted, live_board.acted)
    events.subscribe(Acted, shown.acted)
    events.subscribe(MatchFinished, live_board.finished)
    events.subscribe(MatchFinished, shown.finished)
    events.subscribe(GameBooked, series_desk.game_booked)
    events.subscribe(PairingBooked, tournament_desk.pairing_booked)
    events.subscribe(MatchAborted, live_board.aborted)
    events.subscribe(MatchAborted, shown.aborted)
    events.subscribe(MatchAborted, series_desk.match_aborted)
    events.subscribe(TurnPassed, TurnNotifier(bot, env.notifications).turn_passed)
    # A rematch offer's steps, asked here or on the live board: shown on both.
    events.subscribe(RematchChanged, live_board.rematched)
    events.subscribe(RematchChanged, RematchThread(bot).changed)
    # A challenge's steps, asked with the command or on the live board: the channel's
    # message first (it answers the command's press), then the pages.
    events.subscribe(ChallengeChanged, ChallengeChannel(bot).changed)
    events.subscribe(ChallengeChanged, live_board.challenge_changed)
    # A takeback's steps, likewise.
    events.subscribe(TakebackChanged, live_board.takeback_changed)
    events.subscribe(TakebackChanged, TakebackThread(bot).changed)
    await serve_live_board(bot, live_board)
    # Last, what a restart left to do: the computer flies wherever it was to move, and
    # the ends and turns passed a crash left untold are told (bot/ui/recovery.py).
    await env.life.resume_computers()
    ends = await recovery.unshown_ends(bot)
    turns = await recovery.untold_turns(bot)
    bot.spawn(recovery.after_restart(bot, ends, turns, series_desk))
    # and, while the bot runs, what a call Discord could not take left behind
    bot.catching_up = recovery.keep_up(bot).start()


async def serve_live_board(bot: CrosshairsBot, board: LiveBoard) -> None:
    """The live board's server, when it is configured (docs/activity.md)."""
    config = bot.config
    if config.live_port is None:
        return
    if config.client_secret is None or config.token is None:
        logging.getLogger(__name__).warning(
            "LIVE_PORT is set but not DISCORD_CLIENT_SECRET: the live board stays off"
        )
        return
    app_id = lambda: bot.application_id  # noqa: E731 - known once the bot logged in
    api = DiscordApi(config.api_base or DISCORD_API, app_id, config.client_secret, config.token)
    server = LiveServer(board, api, app_id)
    await server.start(config.live_host, config.live_port)
    bot.live_server = server
    if bot.games.shards.count > 1:  # alone, every action is this process's: its events show it
        bot.spawn(board.follow())
    logging.getLogger(__name__).info(
        "live board on http://%s:%d/ (public address: %s)",
        config.live_host,
        server.port,
        config.live_public_url or "LIVE_PUBLIC_URL not set",
    )


def create_bot(config: Config, clock: Clock | None = None) -> CrosshairsBot:
    if config.shard_count is None:
        return CrosshairsBot(config, install, clock)
    return ShardedCrosshairsBot(
        config,
        install,
        clock,
        shard_count=config.shard_count,
        shard_ids=list(config.shards.ids),
    )


async def until_stopped(work: Coroutine[Any, Any, None]) -> bool:
    """Run ``work`` until it ends, or until SIGINT or SIGTERM (Ctrl-C, a deployment's
    stop) asks the process to stop: then cancel it, and say so (True).

    Not asyncio's own handling of SIGINT: it cancels the main task once, and on Python
    3.11 a cancel that lands as an awaited ``wait_for`` finishes is lost (discord.py
    awaits the gateway's handshake in one). The bot then ran on, deaf to the stop, until
    it was killed: one stop in three right after a start, seen in the tests (the handler
    had run; a second SIGINT ended it). Here the cancel is asked again each second until
    it is heard. SIGTERM used to end the process without closing anything."""
    loop = asyncio.get_running_loop()
    asked = asyncio.Event()
    for stop in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop, asked.set)
    running = asyncio.ensure_future(work)
    told = asyncio.ensure_future(asked.wait())
    try:
        await asyncio.wait({running, told}, return_when=asyncio.FIRST_COMPLETED)
        while not running.done():
            running.cancel()
            await asyncio.wait({running}, timeout=1.0)
        if not running.cancelled():
            running.result()  # what ended it on its own (a damaged database) is told
        return told.done()
    finally:
        told.cancel()
        for stop in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(stop)


async def serve(bot: CrosshairsBot, token: str) -> None:
    """Run ``bot`` until the process is asked to stop; ``async with`` closes it."""
    async with bot:
        await until_stopped(bot.start(token))


def run_bot() -> int:
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"Cannot start the bot: {exc}", file=sys.stderr)
        return 2
    if config.token is None:
        # The launcher (bash scripts/run) reads .env and offers the playground instead.
        print(
            "No DISCORD_TOKEN is set. Run `bash scripts/run` to play locally, or see "
            'README.md, "Connecting to Discord".',
            file=sys.stderr,
        )
        return 2
    configure_logging(config.log_level, config.log_format)
    try:
        asyncio.run(serve(create_bot(config), config.token))
    except StorageError as exc:  # a damaged or unreachable database: one line, no traceback
        logging.getLogger(__name__).error("not starting: %s", exc)
        return 1
    return 0
