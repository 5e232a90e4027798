"""The computer's turns in a match: one plane action at a time (with the shots that
follow it), committed like anyone's press. A part of the game manager.

The search runs in a worker process (:mod:`bot.services.workers`) and plans the whole
player-turn at once; the plan is kept with the match and played an action at a time,
so the computer pauses between its plane actions as a person would, and searches once
per turn. A plan is used only at the ply it was made for: anything else (a reload, a
timeout) means planning again. The game manager owns one (``Games.computer``) and
is its :class:`~bot.services.live.MatchHost`: it loads the matches and commits the steps.
"""

from __future__ import annotations

from bot.services import jobs
from bot.services.live import MatchHost, Update
from bot.services.refusal import Refusal
from i18n import _
from rules import notation
from rules.errors import RulesError


class ComputerTurns:
    def __init__(self, host: MatchHost) -> None:
        self._host = host

    async def play(self, match_id: int) -> Update | None:
        """Let the computer make one plane action (with the shots that follow it) if a
        computer is to move; None otherwise."""
        host = self._host
        live = await host.get(match_id)
        async with live.lock:
            seat = live.game.to_move
            if seat is None or not live.computer_to_move:
                return None
            actions = live.computer_plan.get(live.ply)
            if not actions:
                strength = live.seats[seat].strength or "medium"
                seed = (live.id * 7 + seat) * 1009 + live.game.turn
                actions = await host.workers.run(
                    jobs.computer_turn, jobs.snapshot_of(live.game), strength, seed
                )
            live.computer_plan.clear()
            if not actions:
                return None
            trial = live.game.copy(with_history=False)
            try:
                steps = [step for step, _ in notation.play_tokens(trial, actions[0])]
            except RulesError as exc:  # a worker and this process disagree: never expected
                raise Refusal(_("the computer could not move ({error})", error=exc)) from None
            update = await host.commit(live, steps, None)
            if actions[1:]:
                live.computer_plan[live.ply] = actions[1:]
            return update
