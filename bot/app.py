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

import logging
import sys
from collections.abc import Awaitable, Callable

from bot.config import Config, ConfigError
from bot.discord_app import CrosshairsBot, ShardedCrosshairsBot
from bot.ops import configure_logging
from bot.services.clock import Clock
from bot.services.events import GameBooked, MatchAborted, MatchFinished, TurnPassed
from bot.ui import (
    analysis,
    anywhere,
    buttons,
    clocks,
    closed_threads,
    commands,
    departures,
    exercise,
    invites,
    leaderboard,
    learn,
    notify_setting,
    puzzles,
    recovery,
    rematch,
    rules_help,
    series,
    series_invites,
    setup_check,
    takeback,
    tournament,
    tournament_controls,
    tournament_registration,
    tournament_teams,
    vacation,
)
from bot.ui.desks import Desks
from bot.ui.notify import NotifyDesk
from bot.ui.rematch_offers import RematchOffers
from bot.ui.series import SeriesDesk
from bot.ui.tournament_desk import TournamentDesk
from bot.ui.translator import CommandTranslator
from storage.errors import StorageError

Feature = Callable[[CrosshairsBot], Awaitable[None]]

# Every feature of the bot, each by its module's ``setup``: its commands (under
# /crosshairs, in this order), its persistent buttons (matched by custom id, so they
# work across restarts) and its cogs.
FEATURES: tuple[Feature, ...] = (
    commands.setup,  # /crosshairs itself, and playing and watching a match
    anywhere.setup,  # where the bot only answers: what needs it to post is refused
    buttons.setup,  # the board's buttons and the cockpit
    invites.setup,  # challenges and lobbies
    rematch.setup,
    takeback.setup,
    clocks.setup,  # the turn clocks
    vacation.setup,
    notify_setting.setup,  # turn DMs
    departures.setup,  # a match's thread, channel or server gone
    closed_threads.setup,  # a match's thread archived or locked
    rules_help.setup,
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
)


async def install(bot: CrosshairsBot) -> None:
    """Set every feature up on the services the bot built as it started (``bot.env``),
    each given what it needs; then carry on what a restart left to do."""
    env = bot.env
    # The desks several features share: built here, once, and handed on.
    series_desk = SeriesDesk(bot, env.games, env.series, env.ratings)
    tournament_desk = TournamentDesk(
        bot,
        env.tournaments,
        series_desk,
        env.games.events,
        env.games.clock,
        env.config.clock_interval,
    )
    bot.desks = Desks(series=series_desk, tournaments=tournament_desk, rematches=RematchOffers())
    await bot.add_cog(series_desk)
    await bot.add_cog(tournament_desk)
    for setup in FEATURES:
        await setup(bot)
    # the commands' names, descriptions and choices in every shipped language (i18n)
    await bot.tree.set_translator(CommandTranslator())
    # What follows an action, in this order. A match's end: the rating and its line, the
    # series' booking, scoreboard and next game; then, the series game booked, the
    # tournament's booking. A turn passed: the DM to whoever is to move.
    events = env.games.events
    events.subscribe(MatchFinished, series_desk.match_finished)
    events.subscribe(GameBooked, tournament_desk.series_booked)
    events.subscribe(MatchAborted, series_desk.match_aborted)
    events.subscribe(TurnPassed, NotifyDesk(bot, env.notifications).turn_passed)
    # Last, what a restart left to do: the computer flies wherever it was to move, and
    # the ends and turns passed a crash left untold are told (bot/ui/recovery.py).
    for live in env.games.live_matches():
        if live.computer_to_move:
            bot.spawn(buttons.computer_turns(bot, live.id))
    ends = await recovery.unshown_ends(bot)
    turns = await recovery.untold_turns(bot)
    bot.spawn(recovery.after_restart(bot, ends, turns, series_desk))
    # and, while the bot runs, what a call Discord could not take left behind
    bot.spawn(recovery.keep_up(bot))


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
        create_bot(config).run(config.token, log_handler=None)
    except StorageError as exc:  # a damaged or unreachable database: one line, no traceback
        logging.getLogger(__name__).error("not starting: %s", exc)
        return 1
    return 0
