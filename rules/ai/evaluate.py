"""How good a position is for one seat: the computer player's judgement.

A position is scored by adding up, for every seat, what its planes are worth, and
taking the seat's own side minus its enemies. What a seat's planes are worth:

* **material** — planes left (board and reserve). A seat down to two planes is one kill
  from elimination, which loses the game in a duel, so the second-to-last plane is worth
  extra.
* **height** — height is power: it pays for dives, which are the only way to turn
  sharply, stop, or escape when blocked. Each extra level is worth less than the one
  before (a plane at 6 is not twice as safe as one at 3).
* **crash risk** — a plane at height 0 or 1 that faces the board edge cannot move
  forward and cannot power-dive, so it crashes on its owner's next turn: nearly a
  whole plane lost. Facing another plane is a milder form of the same danger.
* **danger** — the heart of the game. While one seat acts, everyone else's planes stand
  still, so a standing plane that two of the acting seat's planes can each bring their
  guns onto (see :mod:`rules.ai.reach`) will probably be shot down. Counting those
  planes makes the player keep out of crossfires it could avoid, and, from the other
  side, rewards half-finished turns that leave the enemy nowhere to hide.
* **clouds** — a plane in a cloud cannot be shot at all.
* **trophies** — in free-for-all they decide the winner.

The weights were tuned by self-play (see ``docs/ai.md``); the scale is "one plane = 10".
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import board
from rules.ai.reach import poses
from rules.board import NEIGHBOUR, RAY
from rules.game import Game, Plane
from rules.modes import ALL_ACTIONS

WIN = 1000.0


@dataclass(frozen=True)
class Weights:
    """What each feature is worth; a plane is 10."""

    plane: float = 10.0
    second_to_last: float = 4.0
    height: tuple[float, ...] = (0.0, 1.2, 2.1, 2.8, 3.3, 3.6, 3.8)
    doomed: float = 8.0
    blocked: float = 2.0
    danger: float = 7.0
    cloud: float = 0.6
    aim: float = 0.4
    trophy: float = 8.0


class Evaluator:
    """Scores positions of one game. Holds what does not change during play (clouds,
    rules) and caches the acting seat's threat map between calls."""

    def __init__(self, game: Game, weights: Weights | None = None) -> None:
        self.w = weights or Weights()
        self.cloud = [game.is_cloud(c) for c in board.CELLS]
        rules = game.settings.rules
        self.concealed = rules.fire_from_clouds
        self.level = rules.level_flights
        self.classic = rules.rings
        self.teams = game.mode.teams
        self.family = game.mode.family
        self.homes = tuple(board.HOME[side] for side in game.mode.sides)
        self._threat_key: object = None
        self._threat: dict[int, int] = {}

    def score(self, game: Game, me: int) -> float:
        """The position's value for seat ``me``: positive is good."""
        if game.is_over:
            return self._final(game, me)
        values = self.seat_values(game)
        return self.combine(game, values, me)

    def combine(self, game: Game, values: list[float], me: int) -> float:
        teams = self.teams
        own = 0.0
        enemy = 0.0
        enemies = 0
        for s, v in enumerate(values):
            if teams[s] == teams[me]:
                own += v
            else:
                enemy += v
                enemies += 1
        # In free-for-all each rival is one of several: losing a plane to one of them
        # costs me a plane, theirs costs each of them only a share of my gain.
        if (self.family.trophies or self.family.circle) and enemies:
            enemy /= enemies
        return own - enemy

    def seat_values(self, game: Game) -> list[float]:
        w = self.w
        n = game.seats
        values = [0.0] * n
        for s in range(n):
            state = game.seat(s)
            if state.out:
                continue
            left = game.planes_left(s)
            values[s] = left * w.plane + (w.second_to_last if left >= 2 else 0.0)
            values[s] += state.trophies * w.trophy
        planes = game.planes()
        at = {p.cell: p for p in planes}
        active = game.active
        threat = self._threat_map(game, planes)
        cloud = self.cloud
        cod = self.family.circle
        for p in planes:
            v = w.height[p.height]
            ahead = NEIGHBOUR[p.cell * 6 + p.facing]
            if p.height <= 1:
                if ahead < 0:
                    v -= w.doomed
                elif ahead in at:
                    v -= w.blocked
            if cloud[p.cell]:
                v += w.cloud
            elif (
                threat
                and self.teams[p.seat] != self.teams[active]
                and (not cod or game.right_neighbour(p.seat) == active)
                and self._attackers(p, at, threat) >= 2
            ):
                v -= w.danger
            values[p.seat] += v
        for p in planes:
            q = self._target(p, at)
            if q is not None and self.teams[q.seat] != self.teams[p.seat]:
                values[p.seat] += w.aim
        return values

    def _final(self, game: Game, me: int) -> float:
        assert game.result is not None
        winners = game.result.winners
        material = game.planes_left(me)
        if not winners:
            return 0.0
        if any(self.teams[s] == self.teams[me] for s in winners):
            share = sum(1 for s in winners if self.teams[s] != self.teams[me])
            return (WIN / 2 if share else WIN) + material
        return -WIN + material

    def _target(self, p: Plane, at: dict[int, Plane]) -> Plane | None:
        cloud = self.cloud
        if cloud[p.cell] and not self.concealed:
            return None
        for c in RAY[p.cell * 6 + p.facing]:
            if cloud[c]:
                return None
            q = at.get(c)
            if q is not None:
                return q
        return None

    def _attackers(self, p: Plane, at: dict[int, Plane], threat: dict[int, int]) -> int:
        """How many of the acting seat's planes could bring their guns onto ``p``."""
        cloud = self.cloud
        mask = 0
        for d in range(6):
            back = (d + 3) % 6
            for c in RAY[p.cell * 6 + d]:
                if cloud[c]:
                    if self.concealed:
                        mask |= threat.get(c * 6 + back, 0)
                    break
                q = at.get(c)
                bits = threat.get(c * 6 + back, 0)
                if q is not None:
                    # Only the plane standing there can aim from its own cell.
                    mask |= bits & threat.get(-1 - q.id, 0)
                    break
                mask |= bits
        return mask.bit_count()

    def _threat_map(self, game: Game, planes: list[Plane]) -> dict[int, int]:
        """Pose -> bit set of the acting seat's planes that can take it this turn.

        A plane that already acted keeps its pose; reserve planes count as attackers
        from any home cell while placements are left. Key ``-1 - id`` holds a plane's
        own bit so a plane blocking a line can be told apart from one flying into it.
        """
        active = game.active
        mine = [p for p in planes if p.seat == active]
        state = game.seat(active)
        may_stay = game.ramp < ALL_ACTIONS
        free = game.ramp - game.actions
        key = (tuple(mine), game.acted, state.reserve, free, self._free_homes(game, active))
        if key == self._threat_key:
            return self._threat
        threat: dict[int, int] = {}
        climb = not self.classic or state.rings > 0
        bit = 1
        for p in mine:
            threat[-1 - p.id] = bit
            if p.id in game.acted or free <= 0:
                found: frozenset[int] | set[int] = {p.cell * 6 + p.facing}
            else:
                found = poses(p.cell, p.facing, p.height, p.ace, self.level, climb)
                if may_stay:
                    found = found | {p.cell * 6 + p.facing}
            for pose in found:
                threat[pose] = threat.get(pose, 0) | bit
            bit <<= 1
        homes = self._free_homes(game, active)
        for _ in range(min(state.reserve, free, 2)):
            for c in homes:
                for f in range(6):
                    threat[c * 6 + f] = threat.get(c * 6 + f, 0) | bit
            bit <<= 1
        self._threat_key = key
        self._threat = threat
        return threat

    def _free_homes(self, game: Game, seat: int) -> tuple[int, ...]:
        return tuple(c for c in self.homes[seat] if game.plane_at(c) is None)
