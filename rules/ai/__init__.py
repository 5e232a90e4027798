"""The computer player: turn planning, reply search and a hand-tuned evaluation.

Use :class:`ComputerPlayer` (``easy``, ``medium`` or ``hard``); it follows the
:class:`rules.players.Player` protocol. How it thinks: :mod:`rules.ai.search`; what it
values: :mod:`rules.ai.evaluate`; the strengths: :mod:`rules.ai.strengths`.
"""

from rules.ai.player import ComputerPlayer
from rules.ai.strengths import STRENGTHS, Strength

__all__ = ["STRENGTHS", "ComputerPlayer", "Strength"]
