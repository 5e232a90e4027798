"""The Discord side of the bot: slash commands, buttons, views and background loops.

:func:`register` wires them into a bot: the ``/crosshairs`` command group, the
persistent buttons (matched by custom id, so they work across restarts) and the cog
that watches the turn clocks.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


async def register(bot: CrosshairsBot) -> None:
    from bot.ui import buttons, invites, leaderboard, rules_help, series, tournament
    from bot.ui.clocks import ClockWatch
    from bot.ui.commands import crosshairs

    # these modules' commands join the group when the modules are imported
    assert rules_help.rules and series.series and leaderboard.profile and tournament.tournament
    bot.tree.add_command(crosshairs)
    bot.add_dynamic_items(
        buttons.MatchButton,
        buttons.ConfirmResign,
        buttons.CockpitButton,
        invites.ChallengeButton,
        invites.LobbyButton,
        rules_help.RulesPageButton,
        tournament.RegistrationButton,
    )
    await bot.add_cog(ClockWatch(bot))
    await bot.add_cog(series.SeriesDesk(bot))
    await bot.add_cog(tournament.TournamentDesk(bot))  # after the series desk it uses


async def resume_computers(bot: CrosshairsBot) -> None:
    """After a restart, let the computer carry on wherever it was to move."""
    from bot.ui.computer import computer_turns

    for live in bot.games.live_matches():
        if live.computer_to_move:
            bot.spawn(computer_turns(bot, live.id))
