"""The computer's turns in a match: one plane action at a time (with the shots that
follow it), committed like anyone's press. A part of the game manager."""

from __future__ import annotations

import asyncio

from bot.services.live import MatchHost, Update
from rules.ai.player import ComputerPlayer
from rules.game import Game
from rules.steps import CLOUD, PLACE, Step


class ComputerTurns:
    async def play_computer(self: MatchHost, match_id: int) -> Update | None:
        """Let the computer make one plane action (with the shots that follow it) if a
        computer is to move; None otherwise."""
        live = await self.get(match_id)
        async with live.lock:
            seat = live.game.to_move
            if seat is None or not live.computer_to_move:
                return None
            player = live.computers.get(seat)
            if player is None:
                strength = live.seats[seat].strength or "medium"
                player = live.computers[seat] = ComputerPlayer(strength, seed=live.id * 7 + seat)
            chosen: list[Step] = []
            trial = live.game.copy()
            while not trial.is_over and trial.to_move == seat:
                step = await asyncio.to_thread(player.choose, trial.copy(with_history=False))
                if chosen and _starts_action(trial, step):
                    break
                trial.play(step)
                chosen.append(step)
            return await self._commit(live, chosen, None)


def _starts_action(game: Game, step: Step) -> bool:
    """Whether ``step`` begins a new plane action (rather than continuing a dive or
    shooting), which is where the computer pauses between actions."""
    if step.kind in (PLACE, CLOUD):
        return True
    if not step.is_manoeuvre:
        return False
    diver = game.plane(game.diving) if game.diving >= 0 else None
    return not (step.is_dive and diver is not None and diver.cell == step.cell)
