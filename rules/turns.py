"""Playing a step and passing the turn: the flow of a player-turn.

:meth:`rules.game.Game.push` applies a legal step and returns what happened as typed
events (:mod:`rules.events`); :class:`TurnFlow` is the part of the rules that plays it.
After every step the game *settles*:

1. in automatic fire, every available shot is fired;
2. a dive that cannot go on ends — in manual fire only once no shot on offer could
   clear its way;
3. while the seat to move has nothing left to decide (no action left, no dive, and in
   manual fire no shot), the turn passes to the next seat still playing, clockwise,
   which fires its own automatic shots at once.

So a player never has to say "pass" unless they choose to hold fire or end a dive
early with ``-``. During setup the seats take turns placing one cloud each until all 16
are down, and then player-turn 1 begins.
"""

from __future__ import annotations

from i18n import N_
from rules import events, steps
from rules.board import RAY
from rules.ends import Referee
from rules.events import Event
from rules.fire import Guns
from rules.legal import LegalSteps
from rules.pieces import CLOUD_COUNT, PLAY, Plane, Played
from rules.state import GameState
from rules.steps import Step
from rules.variants import Rules


class TurnFlow:
    """Playing steps and passing the turn under one game's rules (see the module
    docstring); the game has already checked that the step is legal."""

    def __init__(self, rules: Rules, referee: Referee, guns: Guns, legal: LegalSteps) -> None:
        self.auto = rules.auto_fire
        self.rings = rules.rings
        self.turbulence = rules.turbulence
        self.referee = referee
        self.guns = guns
        self.legal = legal

    def play(self, game: GameState, step: Step) -> tuple[Event, ...]:
        """Apply a legal step, settle, and add it to the record; what happened."""
        ev: list[Event] = []
        seat = game.active
        turn = game.turn
        kind = step.kind
        if kind == steps.SHOOT:
            victim = game._at[step.cell]
            assert victim is not None
            shooters = next(s for v, s in self.guns.shootable(game) if v is victim)
            self.guns.shoot(game, victim, shooters, ev, automatic=False)
        elif kind == steps.END:
            if game.diving >= 0:
                self.end_dive(game, ev)
                if not self.legal.can_act(game):
                    self.next_turn(game, ev)
            else:
                self.next_turn(game, ev)
        elif kind == steps.CLOUD:
            self._place_cloud(game, step.cell, ev)
        elif kind == steps.PLACE:
            self._place(game, step, ev)
        else:
            self._manoeuvre(game, step, ev)
        self.settle(game, ev)
        record = tuple(ev)
        game.history.append(Played(step.token, seat, turn, record))
        game._legal = None
        return record

    def begin_play(self, game: GameState) -> None:
        """Player-turn 1 (or the turn of a position) begins: its opening shots."""
        ev: list[Event] = [events.TurnPassed(game.active, game.turn, game.ramp)]
        self._turn_started(game, ev)
        self.settle(game, ev)
        game.opening = tuple(ev)

    def _turn_started(self, game: GameState, ev: list[Event]) -> None:
        if game.tracker is not None:
            game.tracker.turn_started(ev)
        if self.auto:
            self.guns.auto_fire(game, ev)

    def settle(self, game: GameState, ev: list[Event]) -> None:
        """After a step: fire automatically, end a dive that cannot go on, and pass the
        turn for as long as the seat to move has nothing to decide."""
        if game.phase != PLAY:
            return
        if self.auto:
            self.guns.auto_fire(game, ev)
        if game.phase != PLAY:
            return
        d = game.diving
        if d >= 0 and not self.legal.dive_may_go_on(game, game._planes[d]):
            self.end_dive(game, ev)
        passes = 0
        while game.phase == PLAY and not self._has_decision(game):
            self.next_turn(game, ev)
            passes += 1
            if passes > 2 * game.seats:
                self.referee.finish(game, (), N_("no one can act"), ev)

    def _has_decision(self, game: GameState) -> bool:
        if game._seats[game.active].out:
            return False
        if game.diving >= 0 or self.legal.can_act(game):
            return True
        return not self.auto and bool(self.guns.shootable(game))

    def next_turn(self, game: GameState, ev: list[Event]) -> None:
        if game.diving >= 0:
            self.end_dive(game, ev)
        if game.tracker is not None:
            game.tracker.turn_ended(ev)
        game.active = game.left_neighbour(game.active)
        game.turn += 1
        game.actions = 0
        game.acted = frozenset()
        limit = game.settings.turn_limit
        if limit is not None and game.turn > limit:
            self.referee.finish(game, (), N_("turn limit"), ev)
            return
        ev.append(events.TurnPassed(game.active, game.turn, game.ramp))
        self._turn_started(game, ev)

    def end_dive(self, game: GameState, ev: list[Event]) -> None:
        p = game._planes.get(game.diving)
        if p is not None:
            ev.append(events.DiveEnded(p.seat, p.id, p.cell))
        game.diving = -1

    def _place_cloud(self, game: GameState, c: int, ev: list[Event]) -> None:
        game._cloud[c] = True
        ev.append(events.CloudPlaced(game.active, c))
        placed = sum(game._cloud)
        if placed >= CLOUD_COUNT:
            game.active = 0
            game.phase = PLAY
            ev.append(events.TurnPassed(0, 1, game.ramp))
            self._turn_started(game, ev)
        else:
            game.active = placed % game.seats

    def _place(self, game: GameState, step: Step, ev: list[Event]) -> None:
        if game.diving >= 0:
            self.end_dive(game, ev)
        seat = game.active
        s = game._seats[seat]
        height = 1 if s.handicap else 0
        game._seats[seat] = s._replace(reserve=s.reserve - 1, handicap=max(0, s.handicap - 1))
        p = Plane(game._next_id, seat, step.cell, step.facing, height)
        game._next_id += 1
        game._at[p.cell] = p
        game._planes[p.id] = p
        game.actions += 1
        game.acted = game.acted | {p.id}
        ev.append(events.Placed(seat, p.id, p.cell, p.facing, height))

    def _manoeuvre(self, game: GameState, step: Step, ev: list[Event]) -> None:
        p = game._at[step.cell]
        assert p is not None
        kind = step.kind
        if not (kind in steps.DIVES and game.diving == p.id):
            if game.diving >= 0:
                self.end_dive(game, ev)
            game.actions += 1
            game.acted = game.acted | {p.id}
            if kind in steps.DIVES:
                game.diving = p.id
        seat = p.seat
        cell = p.cell
        facing = p.facing
        height = p.height
        rings = 0  # rings returned to (+) or taken from (-) the classic supply
        if kind == steps.CRASH:
            game._remove(p)
            if self.rings:
                game._give_rings(seat, height)
            ev.append(events.Crashed(seat, p.id, cell))
            if game.tracker is not None:
                game.tracker.lost(seat)
            self.referee.check_elimination(game, seat, None, "crash", ev)
            return
        if kind == steps.CLIMB:
            height += 1
            rings = -1
            ev.append(events.HeightChanged(seat, p.id, cell, height, "climb"))
            distance = 1
        elif kind == steps.LEVEL:
            distance = 2
        elif kind == steps.LEVEL1:
            distance = 1
        elif kind == steps.SWOOP:
            height -= 1
            rings = 1
            ev.append(events.HeightChanged(seat, p.id, cell, height, "dive"))
            distance = 1
        elif kind == steps.POWER:
            height -= 2
            rings = 2
            ev.append(events.HeightChanged(seat, p.id, cell, height, "dive"))
            distance = 0
        else:  # Immelmann
            height -= 3
            rings = 3
            facing = (facing + 3) % 6
            ev.append(events.HeightChanged(seat, p.id, cell, height, "immelmann"))
            ev.append(events.Turned(seat, p.id, cell, facing))
            distance = 0
        if distance:
            path = RAY[cell * 6 + facing][:distance]
            ev.append(events.Moved(seat, p.id, cell, path))
            cloud = game._cloud
            for c in path:
                if self.turbulence and cloud[c] and not cloud[cell] and height:
                    height -= 1
                    rings += 1
                    ev.append(events.HeightChanged(seat, p.id, c, height, "turbulence"))
                cell = c
        if step.turn:
            facing = (facing + step.turn) % 6
            ev.append(events.Turned(seat, p.id, cell, facing))
        if rings and self.rings:
            game._give_rings(seat, rings)
        if game.tracker is not None and kind in steps.DIVES:
            game.tracker.dived(p, p.height - height)
        moved = Plane(p.id, seat, cell, facing, height, p.ace)
        game._at[p.cell] = None
        game._at[cell] = moved
        game._planes[p.id] = moved
