"""The computer player: turn planning, reply search, an evaluation tuned by self-play,
and post-game analysis.

Use :class:`ComputerPlayer` (``easy``, ``medium``, ``hard`` or ``expert``); it follows
the :class:`rules.players.Player` protocol. How it thinks: :mod:`rules.ai.search` and,
for the expert, :mod:`rules.ai.deep`; what it values: :mod:`rules.ai.evaluate`; the
strengths: :mod:`rules.ai.strengths`; judging a finished game: :mod:`rules.ai.analysis`.
"""

from rules.ai.player import ComputerPlayer
from rules.ai.strengths import STRENGTHS, Strength

__all__ = ["STRENGTHS", "ComputerPlayer", "Strength"]
