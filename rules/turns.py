"""Playing a step and passing the turn: the flow of a player-turn.

:meth:`TurnFlow.push` applies a legal step and returns what happened as typed events
(:mod:`rules.events`); :meth:`TurnFlow.pop` takes it back, and :meth:`TurnFlow.play`
applies one without keeping the snapshot. After every step the game *settles*:

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

from rules import events, steps
from rules.board import RAY
from rules.errors import IllegalStep, RulesError
from rules.events import Event
from rules.explain import why_illegal
from rules.legal import Legal
from rules.pieces import CLOUD_COUNT, PLAY, Plane, Played
from rules.steps import Step


class TurnFlow(Legal):
    """Steps and the turn, as a layer of :class:`rules.game.Game`."""

    def push(self, step: Step) -> tuple[Event, ...]:
        """Apply a legal step and return what happened; :class:`IllegalStep` says why
        not. The step can be taken back with :meth:`pop`."""
        if not self.is_legal(step):
            raise IllegalStep(step.token, self.why_illegal(step))
        self._undo.append(self._snapshot())
        return self._play(step)

    def pop(self) -> Played:
        """Take back the last step pushed; returns its record."""
        if not self._undo:
            raise RulesError("there is no step to take back")
        last = self.history[-1]
        self._restore(self._undo.pop())
        return last

    def play(self, step: Step) -> tuple[Event, ...]:
        """Apply a legal step without keeping what :meth:`pop` needs (replays, servers)."""
        if not self.is_legal(step):
            raise IllegalStep(step.token, self.why_illegal(step))
        return self._play(step)

    def _play(self, step: Step) -> tuple[Event, ...]:
        ev: list[Event] = []
        seat = self.active
        turn = self.turn
        kind = step.kind
        if kind == steps.SHOOT:
            victim = self._at[step.cell]
            assert victim is not None
            shooters = next(s for v, s in self._shootable() if v is victim)
            self._shoot(victim, shooters, ev, automatic=False)
        elif kind == steps.END:
            if self.diving >= 0:
                self._end_dive(ev)
                if not self._can_act():
                    self._next_turn(ev)
            else:
                self._next_turn(ev)
        elif kind == steps.CLOUD:
            self._place_cloud(step.cell, ev)
        elif kind == steps.PLACE:
            self._place(step, ev)
        else:
            self._manoeuvre(step, ev)
        self._settle(ev)
        record = tuple(ev)
        self.history.append(Played(step.token, seat, turn, record))
        self._legal = None
        return record

    def _begin_play(self) -> None:
        ev: list[Event] = [events.TurnPassed(self.active, self.turn, self.ramp)]
        self._turn_started(ev)
        self._settle(ev)
        self.opening = tuple(ev)

    def _turn_started(self, ev: list[Event]) -> None:
        if self.tracker is not None:
            self.tracker.turn_started(ev)
        if self._auto:
            self._auto_fire(ev)

    def _settle(self, ev: list[Event]) -> None:
        """After a step: fire automatically, end a dive that cannot go on, and pass the
        turn for as long as the seat to move has nothing to decide."""
        if self.phase != PLAY:
            return
        if self._auto:
            self._auto_fire(ev)
        if self.phase != PLAY:
            return
        d = self.diving
        if d >= 0 and not self._dive_may_go_on(self._planes[d]):
            self._end_dive(ev)
        passes = 0
        while self.phase == PLAY and not self._has_decision():
            self._next_turn(ev)
            passes += 1
            if passes > 2 * self.seats:
                self._finish((), "no one can act", ev)

    def _has_decision(self) -> bool:
        if self._seats[self.active].out:
            return False
        if self.diving >= 0 or self._can_act():
            return True
        return not self._auto and bool(self._shootable())

    def _next_turn(self, ev: list[Event]) -> None:
        if self.diving >= 0:
            self._end_dive(ev)
        if self.tracker is not None:
            self.tracker.turn_ended(ev)
        self.active = self.left_neighbour(self.active)
        self.turn += 1
        self.actions = 0
        self.acted = frozenset()
        limit = self.settings.turn_limit
        if limit is not None and self.turn > limit:
            self._finish((), "turn limit", ev)
            return
        ev.append(events.TurnPassed(self.active, self.turn, self.ramp))
        self._turn_started(ev)

    def _end_dive(self, ev: list[Event]) -> None:
        p = self._planes.get(self.diving)
        if p is not None:
            ev.append(events.DiveEnded(p.seat, p.id, p.cell))
        self.diving = -1

    def _place_cloud(self, c: int, ev: list[Event]) -> None:
        self._cloud[c] = True
        ev.append(events.CloudPlaced(self.active, c))
        placed = sum(self._cloud)
        if placed >= CLOUD_COUNT:
            self.active = 0
            self.phase = PLAY
            ev.append(events.TurnPassed(0, 1, self.ramp))
            self._turn_started(ev)
        else:
            self.active = placed % self.seats

    def _place(self, step: Step, ev: list[Event]) -> None:
        if self.diving >= 0:
            self._end_dive(ev)
        seat = self.active
        s = self._seats[seat]
        height = 1 if s.handicap else 0
        self._seats[seat] = s._replace(reserve=s.reserve - 1, handicap=max(0, s.handicap - 1))
        p = Plane(self._next_id, seat, step.cell, step.facing, height)
        self._next_id += 1
        self._at[p.cell] = p
        self._planes[p.id] = p
        self.actions += 1
        self.acted = self.acted | {p.id}
        ev.append(events.Placed(seat, p.id, p.cell, p.facing, height))

    def _manoeuvre(self, step: Step, ev: list[Event]) -> None:
        p = self._at[step.cell]
        assert p is not None
        kind = step.kind
        if not (kind in steps.DIVES and self.diving == p.id):
            if self.diving >= 0:
                self._end_dive(ev)
            self.actions += 1
            self.acted = self.acted | {p.id}
            if kind in steps.DIVES:
                self.diving = p.id
        seat = p.seat
        cell = p.cell
        facing = p.facing
        height = p.height
        rings = 0  # rings returned to (+) or taken from (-) the classic supply
        if kind == steps.CRASH:
            self._remove(p)
            if self._classic:
                self._give_rings(seat, height)
            ev.append(events.Crashed(seat, p.id, cell))
            if self.tracker is not None:
                self.tracker.lost(seat)
            self._check_elimination(seat, None, "crash", ev)
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
            cloud = self._cloud
            for c in path:
                if self._turbulence and cloud[c] and not cloud[cell] and height:
                    height -= 1
                    rings += 1
                    ev.append(events.HeightChanged(seat, p.id, c, height, "turbulence"))
                cell = c
        if step.turn:
            facing = (facing + step.turn) % 6
            ev.append(events.Turned(seat, p.id, cell, facing))
        if rings and self._classic:
            self._give_rings(seat, rings)
        if self.tracker is not None and kind in steps.DIVES:
            self.tracker.dived(p, p.height - height)
        moved = Plane(p.id, seat, cell, facing, height, p.ace)
        self._at[p.cell] = None
        self._at[cell] = moved
        self._planes[p.id] = moved

    def why_illegal(self, step: Step) -> str:
        """A player-facing reason why ``step`` is not legal now."""
        return why_illegal(self, step)
