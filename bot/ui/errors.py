"""One place that turns errors into friendly ephemeral answers."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

import discord
from discord import app_commands

from bot.services.refusal import Refusal
from bot.ui.text import fit
from i18n import _, speaking
from rules.errors import RulesError

log = logging.getLogger(__name__)

FRIENDLY = (Refusal, RulesError)
# Discord refused the answer itself: the interaction was delivered after its three
# seconds (10062), or this was a second delivery of one already answered (40060).
# Nothing can reach the presser then, and nothing was changed: handlers answer first.
UNANSWERABLE = (10062, 40060)


def unanswerable(error: BaseException) -> bool:
    return isinstance(error, discord.HTTPException) and error.code in UNANSWERABLE


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer only the person who acted, whether or not the interaction was answered."""
    if interaction.response.is_done():
        await interaction.followup.send(fit(text), ephemeral=True)
    else:
        await interaction.response.send_message(fit(text), ephemeral=True)


async def guarded(interaction: discord.Interaction, action: Awaitable[None]) -> None:
    """Run a button's action in the presser's language; whatever goes wrong becomes an
    answer to them."""
    with speaking(interaction.locale):
        try:
            await action
        except Exception as exc:
            await report(interaction, exc)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Domain errors become a short ephemeral note; anything else is logged."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if unanswerable(error):
        log.info("an interaction could not be answered (%s); it changed nothing", error)
    elif isinstance(error, FRIENDLY):
        await tell(interaction, f"⚠️ {error}")
    elif isinstance(error, app_commands.CheckFailure):
        await tell(interaction, f"⛔ {error}")
    elif isinstance(error, app_commands.TransformerError):
        said = _(
            "I could not read {value} as a {kind}.",
            value=repr(error.value),
            kind=error.type.name.lower(),
        )
        await tell(interaction, f"⚠️ {said}")
    else:
        log.exception("unexpected error in an interaction", exc_info=error)
        await tell(interaction, "😵 " + _("Something went wrong on our side; it has been logged."))
