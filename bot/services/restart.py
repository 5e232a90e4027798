"""What a restart takes up, asked of storage for this process's shards only: the ends
not shown in full, the turns passed not told, the boards behind their game (the
computer's turns to fly: :meth:`bot.services.life.MatchLife.resume_computers`). Each
match is loaded when it is taken up, so a start-up with many idle matches loads none of
them (bot/ui/recovery.py uses these)."""

from __future__ import annotations

import logging

from bot.services.events import TurnPassed
from bot.services.live import LiveMatch, MatchUnavailable
from bot.services.manager import Games

log = logging.getLogger(__name__)


async def unannounced(games: Games) -> list[LiveMatch]:
    """This process's matches whose end was not shown in full (the process died
    between storing the end and showing all that follows it); another process's are
    its own to show, so that nothing is shown twice."""
    found = []
    for end in await games.events.store.pending():
        if not games.shards.owns(end.guild_id):
            continue
        try:
            found.append(await games.get(end.match_id))
        except MatchUnavailable as exc:
            log.warning("match %s: its end cannot be shown (%s)", end.match_id, exc)
    return found


async def untold_turns(games: Games) -> list[TurnPassed]:
    """This process's turns passed whose DM was not sent (the process died between
    storing the step and telling it); another process's are its own to tell."""
    found = []
    for turn in await games.events.turns.pending():
        if not games.shards.owns(turn.guild_id):
            continue
        try:
            live = await games.get(turn.match_id)
        except MatchUnavailable as exc:
            log.warning("match %s: its turn cannot be told (%s)", turn.match_id, exc)
            continue
        found.append(TurnPassed(live, turn.ply, turn.actor_id))
    return found


async def boards_behind(games: Games, before: float) -> list[int]:
    """The ids of this process's matches being played whose board is behind their
    game and that nothing changed since ``before`` (the start-up): one played since has
    its board drawn as it goes."""
    return await games.index.boards_behind(games.shards, before)
