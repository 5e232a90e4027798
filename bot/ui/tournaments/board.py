"""An arena's live standings: one message in the event's channel, edited as results come
in, but at most once every :data:`EDIT_EVERY` seconds (Discord rate-limits edits of a
message, and a busy arena ends several games a second). A result inside the quiet spell
marks the board stale; the tournament clock's next tick brings it up to date. The
message's id is stored with the event, so after a restart the same message is edited.
It speaks the language being spoken: the desk posts it in the server's."""

from __future__ import annotations

import discord

from bot.services.clock import Clock
from bot.services.records import TournamentStatus
from bot.services.tournaments.service import Tournaments
from i18n import _

EDIT_EVERY = 5.0  # seconds between two edits of one board


class ArenaBoards:
    def __init__(self, service: Tournaments, clock: Clock) -> None:
        self.service = service
        self.clock = clock
        self._edited: dict[int, float] = {}  # by tournament: when its board last changed
        self._stale: set[int] = set()

    async def refresh(
        self, tid: int, channel: discord.abc.Messageable, *, flush: bool, final: bool = False
    ) -> None:
        """Bring the board up to date now, or mark it stale when it changed too recently.
        ``flush``: only a stale board is redrawn (the tick's call); ``final``: the event
        is over, so this last edit cannot wait for a tick."""
        if flush and tid not in self._stale:
            return
        now = self.clock.now()
        last = self._edited.get(tid)
        if not final and last is not None and now - last < EDIT_EVERY:
            self._stale.add(tid)
            return
        self._stale.discard(tid)
        self._edited[tid] = now
        text = await self.text(tid)
        plan = await self.service.plans.of(tid)
        if plan.board_message is not None and isinstance(
            channel, discord.TextChannel | discord.Thread
        ):
            try:
                await channel.get_partial_message(plan.board_message).edit(content=text)
                return
            except discord.NotFound:
                pass  # deleted by someone: post a new one
        posted = await channel.send(text)
        await self.service.plans.set_board(tid, posted.id)

    async def text(self, tid: int) -> str:
        t = await self.service.registration.get(tid)
        plan = await self.service.plans.of(tid)
        fire = await self.service.arena.on_fire(tid)
        ranked = await self.service.rounds.standings(tid)
        names = await self.service.rounds.names([line.user_id for line in ranked])
        lines = [_("🏟️ **{name}** — arena standings", name=t.name)]
        if plan.arena_ends is not None and t.status is TournamentStatus.RUNNING:
            lines[0] += " " + _("(ends {when})", when=f"<t:{int(plan.arena_ends)}:R>")
        for line in ranked:
            name = names.get(line.user_id, str(line.user_id))
            lines.append(
                f"{line.place}. {name} {int(line.score)}" + (" 🔥" if line.user_id in fire else "")
            )
        return "\n".join(lines)
