"""How the board message is posted and changed: through an interaction's own webhook when
one is at hand, else through the channel's routes.

Discord lets a bot token make about 50 rate-limited calls per second in all, and a
thread takes 5 messages per 5 s; interaction webhooks (a follow-up, an edit of one) are
exempt from the global limit and counted per interaction. So when a press or a command
ends a player-turn, the next board is posted as that interaction's follow-up, and the
board is then edited through the same interaction's token — also when a later action
changes it, and when it becomes the turn told in words — for as long as the token lives
(15 minutes; a margin is kept). An earlier turn told in words that the same action
ended (the game ending at the start of the next turn) goes up through it too. A board
posted any other way (the first of a match, one
after a restart or a computer's turn) is changed through the channel until a person's
action posts the next one.
"""

from __future__ import annotations

import datetime
import logging
from collections import OrderedDict
from typing import Any

import discord

log = logging.getLogger(__name__)

MARGIN = datetime.timedelta(minutes=1)  # an edit must not race the token's expiry
KEPT = 4096  # board messages whose posting interaction is remembered


def usable(interaction: discord.Interaction | None) -> bool:
    """Whether ``interaction``'s webhook may still post and edit (its token lives)."""
    return interaction is not None and discord.utils.utcnow() < interaction.expires_at - MARGIN


class BoardEdits:
    """The board messages posted through an interaction's webhook, and how to post and
    edit them: one for all the threads, held by their surface."""

    def __init__(self) -> None:
        # board message id -> the interaction whose webhook posted it
        self._posted_by: OrderedDict[int, discord.Interaction] = OrderedDict()

    async def edit(self, match_id: int, message: discord.PartialMessage, **fields: Any) -> None:
        """Edit the match's board message ``message`` (or what it becomes): through the
        webhook that posted it when its token still lives, else through the channel."""
        via = self._posted_by.get(message.id)
        if via is not None and usable(via):
            try:
                await via.followup.edit_message(message.id, **fields)
                return
            except discord.HTTPException as exc:
                log.info("match %s: board edit through the interaction failed (%s)", match_id, exc)
        self._posted_by.pop(message.id, None)
        await message.edit(**fields)

    async def post(
        self,
        match_id: int,
        channel: discord.abc.Messageable,
        via: discord.Interaction | None,
        text: str,
        file: discord.File,
        view: discord.ui.View | None,
    ) -> discord.Message:
        """Post a new board message: as ``via``'s follow-up when it may (its handle is
        kept for the edits that follow), else in the channel. ``via`` must have been
        answered already, so that the follow-up is a message of its own and not the
        answer."""
        extra: dict[str, Any] = {} if view is None else {"view": view}
        if via is not None and usable(via):
            try:
                message = await via.followup.send(text, file=file, wait=True, **extra)
            except discord.HTTPException as exc:
                log.info("match %s: board post through the interaction failed (%s)", match_id, exc)
                file.reset()
            else:
                self._posted_by[message.id] = via
                while len(self._posted_by) > KEPT:
                    self._posted_by.popitem(last=False)
                return message
        return await channel.send(text, file=file, **extra)


async def say(
    match_id: int, channel: discord.abc.Messageable, via: discord.Interaction | None, text: str
) -> None:
    """Post a message of the thread's own that is never edited (a turn told in words): as
    ``via``'s follow-up when it may, else in the channel; ``via`` must have been answered."""
    if via is not None and usable(via):
        try:
            await via.followup.send(text, wait=True)
            return
        except discord.HTTPException as exc:
            log.info("match %s: a post through the interaction failed (%s)", match_id, exc)
    await channel.send(text)
