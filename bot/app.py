"""The app: the bot with every feature registered, in this one place where it starts.

:func:`create_bot` builds it (tests build it too, and run it against an in-memory
Discord); :func:`run_bot` runs it with the token from the environment. Each feature
module under ``bot.ui`` knows only the services below it; this module is the only one
that knows them all.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from discord import app_commands

from bot.config import Config, ConfigError
from bot.discord_app import CrosshairsBot, ShardedCrosshairsBot
from bot.ops import configure_logging
from bot.services.clock import Clock
from bot.services.events import GameBooked, MatchAborted, MatchFinished, TurnPassed
from bot.ui import (
    analysis,
    buttons,
    exercise,
    invites,
    leaderboard,
    learn,
    notify,
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
    tournament_desk,
    tournament_registration,
    tournament_teams,
    vacation,
)
from bot.ui.clocks import ClockWatch
from bot.ui.closed_threads import ClosedThreads
from bot.ui.commands import crosshairs
from bot.ui.departures import Departures
from bot.ui.translator import CommandTranslator
from storage.errors import StorageError


def install_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Add the ``/crosshairs`` command group, with every module's commands, to ``tree``."""
    # these modules' commands join the group when the modules are imported
    assert (
        rules_help.rules
        and series_invites.start
        and series.series
        and leaderboard.profile
        and tournament.tournament
    )
    assert analysis.analyse and setup_check.check and learn.learn and puzzles.puzzle
    assert takeback.takeback and notify_setting.notify and vacation.vacation
    assert tournament_registration.create and tournament_controls.pause and tournament_teams.team
    tree.add_command(crosshairs)


async def install(bot: CrosshairsBot) -> None:
    """Register the ``/crosshairs`` command group (in every shipped language), the
    persistent buttons (matched by custom id, so they work across restarts) and the cogs;
    then let the computer carry on wherever it was to move before a restart."""
    install_commands(bot.tree)
    await bot.tree.set_translator(CommandTranslator())
    bot.add_dynamic_items(
        buttons.MatchButton,
        buttons.ConfirmResign,
        buttons.CockpitButton,
        buttons.CockpitMenu,
        invites.ChallengeButton,
        invites.LobbyButton,
        rematch.RematchButton,
        rematch.AnswerButton,
        takeback.TakebackButton,
        series_invites.InvitationButton,
        rules_help.RulesPageButton,
        tournament_registration.RegistrationButton,
        tournament_teams.TeamButton,
        exercise.ExerciseButton,
        exercise.ExerciseMenu,
        exercise.TrainingButton,
        learn.LessonMenu,
    )
    await bot.add_cog(ClockWatch(bot))
    await bot.add_cog(rematch.RematchDesk())
    notify_desk = notify.NotifyDesk(bot)
    await bot.add_cog(notify_desk)
    await bot.add_cog(takeback.TakebackDesk(bot))
    await bot.add_cog(Departures(bot))
    await bot.add_cog(ClosedThreads(bot))
    series_desk = series.SeriesDesk(bot)
    await bot.add_cog(series_desk)
    tournaments = tournament_desk.TournamentDesk(bot)  # after the series desk it uses
    await bot.add_cog(tournaments)
    # What follows a match's end: the ratings line, the series' scoreboard and next
    # game, then (the series game booked) the tournament's booking.
    events = bot.games.events
    events.subscribe(MatchFinished, series_desk.match_finished)
    events.subscribe(GameBooked, tournaments.series_booked)
    events.subscribe(MatchAborted, series_desk.match_aborted)
    events.subscribe(TurnPassed, notify_desk.turn_passed)
    await bot.add_cog(puzzles.DailyPuzzles(bot))
    for live in bot.games.live_matches():
        if live.computer_to_move:
            bot.spawn(buttons.computer_turns(bot, live.id))
    bot.spawn(recovery.after_restart(bot, await recovery.unshown_ends(bot)))


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
