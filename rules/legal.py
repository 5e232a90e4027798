"""The legal steps: what the seat to move may do now (rules spec §2, §3 and §9).

During setup the only steps are clouds (``~d4``), on free cells and, unless switched
off, never making a group of more than two. In play a player-turn allows
:attr:`~rules.state.GameState.ramp` actions, each with a different plane:

* a **placement** (``+a3NE``) puts a reserve plane on a free cell of the seat's home
  side, at height 0 (1 with a handicap token), facing any way;
* a **climb** (``c3C``, then ``<`` or ``>`` to turn 60° after moving) flies one cell and
  gains one height, up to 6 (classic: it costs an altitude ring);
* a **level flight** (``c3F``) flies two cells at the same height (classic also ``c3F1``,
  one cell); the *no-level* variant has none;
* a **dive** is a series of manoeuvres, one step each, losing height every time: a swoop
  (``e6S``, one cell ahead, -1) or a power dive (``e6P``, staying put, -2), each with an
  optional 60° turn, or an ace's Immelmann (``e6I``, about-face, -3). It ends when the
  player acts with another plane or plays ``-``, or by itself when it cannot go on — in
  manual fire only once no shot on offer could clear a blocked swoop's way;
* a **crash** (``c3X``) only for a plane that can do nothing else.

No plane enters or flies through a cell holding a plane; clouds never hinder movement.
Manual-fire shots (``*d6``) are listed first, and ``-`` holds fire when shots are all
that is left. Steps are the interned objects of :mod:`rules.steps`, so generation only
collects them.
"""

from __future__ import annotations

from rules import board, steps
from rules.board import NEIGHBOUR
from rules.fire import Guns
from rules.pieces import PLAY, SETUP, Plane
from rules.state import GameState
from rules.steps import Step
from rules.variants import Rules


def _manoeuvre_steps(
    p: Plane, at: list[Plane | None], climb_ok: bool, level: int, out: list[Step]
) -> None:
    """Append the whole-action steps of plane ``p`` (a crash if it can do nothing)."""
    c = p.cell
    h = p.height
    before = len(out)
    n1 = NEIGHBOUR[c * 6 + p.facing]
    if n1 >= 0 and at[n1] is None:
        if h < 6 and climb_ok:
            out.extend(steps.CLIMBS[c])
        if level:
            if level == 2:
                out.extend(steps.LEVEL1S[c])
            n2 = NEIGHBOUR[n1 * 6 + p.facing]
            if n2 >= 0 and at[n2] is None:
                out.extend(steps.LEVELS[c])
        if h:
            out.extend(steps.SWOOPS[c])
    if h >= 2:
        out.extend(steps.POWER_DIVES[c])
    if h >= 3 and p.ace:
        out.append(steps.IMMELMANNS[c])
    if len(out) == before:
        out.append(steps.CRASHES[c])


def _dive_steps(p: Plane, at: list[Plane | None], out: list[Step]) -> None:
    c = p.cell
    h = p.height
    if h:
        n1 = NEIGHBOUR[c * 6 + p.facing]
        if n1 >= 0 and at[n1] is None:
            out.extend(steps.SWOOPS[c])
        if h >= 2:
            out.extend(steps.POWER_DIVES[c])
            if h >= 3 and p.ace:
                out.append(steps.IMMELMANNS[c])


class LegalSteps:
    """Legal step generation under one game's rules (see the module docstring)."""

    def __init__(self, rules: Rules, guns: Guns) -> None:
        self.auto = rules.auto_fire
        self.rings = rules.rings
        self.level = rules.level_flights
        self.guns = guns

    def generate(self, game: GameState) -> list[Step]:
        """Every step the seat to move may take now, uncached."""
        if game.phase == PLAY:
            return self._generate_play(game)
        if game.phase == SETUP:
            return [steps.CLOUDS[c] for c in board.CELLS if self._cloud_allowed(game, c)]
        return []

    def _generate_play(self, game: GameState) -> list[Step]:
        out: list[Step] = []
        manual_shots = False
        if not self.auto:
            for victim, _ in self.guns.shootable(game):
                out.append(steps.SHOTS[victim.cell])
                manual_shots = True
        at = game._at
        d = game.diving
        if d >= 0:
            _dive_steps(game._planes[d], at, out)
            out.append(steps.END_STEP)
        acted_any = False
        if game.actions < game.mode.ramp(game.turn):
            seat = game.active
            acted = game.acted
            climb_ok = not self.rings or game._seats[seat].rings > 0
            level = self.level
            for p in game._planes.values():
                if p.seat == seat and p.id not in acted:
                    _manoeuvre_steps(p, at, climb_ok, level, out)
                    acted_any = True
            if game._seats[seat].reserve:
                for c in game._homes[seat]:
                    if at[c] is None:
                        out.extend(steps.PLACEMENTS[c])
                        acted_any = True
        if d < 0 and manual_shots and not acted_any:
            out.append(steps.END_STEP)
        return out

    def can_act(self, game: GameState) -> bool:
        """Whether the active seat may still take an action this player-turn."""
        if game.actions >= game.mode.ramp(game.turn):
            return False
        seat = game.active
        acted = game.acted
        for p in game._planes.values():
            if p.seat == seat and p.id not in acted:
                return True
        if game._seats[seat].reserve:
            at = game._at
            return any(at[c] is None for c in game._homes[seat])
        return False

    def dive_may_go_on(self, game: GameState, p: Plane) -> bool:
        """Whether the dive of ``p`` stays open: it can go on now, or (manual fire) the
        plane blocking its way could still be shot down, by one shot or a series of them
        (a shot can open a line of fire, an elimination can take the blocker away)."""
        out: list[Step] = []
        _dive_steps(p, game._at, out)
        if out:
            return True
        if self.auto or p.height != 1:
            return False  # automatic fire has already fired; at 0 no shot helps
        ahead = NEIGHBOUR[p.cell * 6 + p.facing]
        return ahead >= 0 and self._shots_could_clear(game, ahead, set())

    def _shots_could_clear(self, game: GameState, cell: int, tried: set[frozenset[int]]) -> bool:
        """Whether some series of the active seat's shots leaves ``cell`` empty. Each
        shot is tried on a scratch copy; ``tried`` holds the sets of planes left after
        the series already searched, so orders that reach the same board count once."""
        for victim, shooters in self.guns.shootable(game):
            scratch = game.copy(with_history=False)
            self.guns.shoot(scratch, victim, shooters, [], automatic=False)
            if scratch.phase != PLAY:
                continue
            if scratch._at[cell] is None:
                return True
            left = frozenset(scratch._planes)
            if left not in tried:
                tried.add(left)
                if self._shots_could_clear(scratch, cell, tried):
                    return True
        return False

    def _cloud_allowed(self, game: GameState, c: int) -> bool:
        cloud = game._cloud
        if cloud[c]:
            return False
        if not game.settings.cloud_groups:
            return True
        near = [n for n in (NEIGHBOUR[c * 6 + f] for f in range(6)) if n >= 0 and cloud[n]]
        if not near:
            return True
        if len(near) > 1:
            return False
        n = near[0]
        return not any(
            m >= 0 and m != c and cloud[m] for m in (NEIGHBOUR[n * 6 + f] for f in range(6))
        )
