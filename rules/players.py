"""Players that choose steps by themselves, and a loop that lets them play a game.

The computer player (:mod:`rules.ai`) follows the same :class:`Player` protocol, so
self-play, benchmarks and the bot treat every kind of computer opponent alike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from rules import clouds
from rules.game import Game
from rules.modes import Settings
from rules.steps import Step


class Player(Protocol):
    name: str

    def choose(self, game: Game) -> Step:
        """One legal step for the seat to move."""
        ...


class RandomPlayer:
    """Picks uniformly among the legal steps."""

    name = "random"

    def __init__(self, seed: int | random.Random = 0) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, game: Game) -> Step:
        return self.rng.choice(game.legal_steps())


def new_game(settings: Settings, seed: int) -> Game:
    """A game with a random symmetric cloud layout chosen by ``seed``."""
    return Game(settings, clouds.random_layout(settings.spec, seed, settings.cloud_groups))


def play_out(game: Game, players: Sequence[Player]) -> Game:
    """Let ``players`` (one per seat) play ``game`` to its end; returns the game."""
    while not game.is_over:
        seat = game.active
        game.play(players[seat].choose(game))
    return game
