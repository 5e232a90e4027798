"""A game of Crosshairs: the state, the legal steps, and what each step does.

The model follows python-chess: a mutable :class:`Game` that lists its legal steps,
applies one with :meth:`Game.push` (reporting what happened as typed events) and takes
it back with :meth:`Game.pop`. A player-turn is a series of steps by the active seat:

* an **action** is a placement (``+a3NE``) or one plane's manoeuvre: a climb (``c3C<``),
  a level flight (``c3F``, classic also ``c3F1``), a crash (``c3X``, only when the plane
  can do nothing else) or a dive, which is one step per manoeuvre (``e6S``, ``e7S>``,
  ``e8P``) and ends when the player acts with another plane or plays ``-``;
* **shots** (``*d4``) take down a plane caught in the line of fire of two planes hostile
  to its owner. In automatic fire every available shot is fired as soon as it appears;
  in manual fire shots are offered as steps and ``-`` holds fire to end the turn.

The turn passes by itself when the active seat has nothing left to decide. The game ends
the moment one player or team is left, even in the middle of a turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, NamedTuple

from rules import board, events, steps
from rules.board import HOME, NEIGHBOUR, RAY
from rules.errors import IllegalStep, RulesError
from rules.events import Event
from rules.modes import CLASSIC_RINGS, Mode, Settings
from rules.steps import Step

if TYPE_CHECKING:
    from rules.achievements import TrackerState

CLOUD_COUNT: Final = 16

SETUP: Final = "setup"  # clouds are being placed
PLAY: Final = "play"
OVER: Final = "over"


class Plane(NamedTuple):
    id: int
    seat: int
    cell: int
    facing: int
    height: int
    ace: bool = False


class SeatState(NamedTuple):
    """A seat's pieces off the board. ``rings`` only matters in the classic ruleset."""

    reserve: int
    handicap: int = 0
    rings: int = CLASSIC_RINGS
    trophies: int = 0
    out: bool = False


class Result(NamedTuple):
    winners: tuple[int, ...]  # empty: drawn
    reason: str

    @property
    def drawn(self) -> bool:
        return not self.winners


class _Snapshot(NamedTuple):
    """Everything :meth:`Game.pop` restores."""

    at: list[Plane | None]
    planes: dict[int, Plane]
    seats: list[SeatState]
    cloud: list[bool]
    next_id: int
    phase: str
    turn: int
    active: int
    actions: int
    acted: frozenset[int]
    diving: int
    result: Result | None
    history: int
    tracker: TrackerState | None


class Played(NamedTuple):
    """One entry of the game record: the token played, by whom, in which player-turn."""

    token: str
    seat: int
    turn: int
    events: tuple[Event, ...]


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


class Game:
    """One game, from cloud setup to its result. See the module docstring."""

    settings: Settings
    mode: Mode
    phase: str
    turn: int  # the player-turn being played, 1-based, counted over all seats
    active: int  # the seat whose decision it is
    actions: int  # actions taken in this player-turn
    acted: frozenset[int]  # planes that acted (or were placed) in this player-turn
    diving: int  # the plane in the middle of a dive, or -1
    result: Result | None
    history: list[Played]

    def __init__(self, settings: Settings | None = None, clouds: Iterable[int] | None = ()) -> None:
        """A new game with every plane in reserve. ``clouds=None`` starts the setup
        phase in which players place the 16 clouds in turn; otherwise ``clouds`` are the
        cloud cells (see :mod:`rules.clouds` for random layouts and presets)."""
        self.settings = settings or Settings()
        self.mode = self.settings.spec
        self._teams = self.mode.teams
        self._classic = self.settings.classic
        variants = self.settings.variants
        self._turbulence = "turbulence" in variants
        self._concealed = "concealed-fire" in variants
        self._aces = "aces" in variants
        self._level = 0 if "no-level" in variants else 2 if self._classic else 1
        self._auto = self.settings.fire == "auto"
        self._cod = self.mode.family == "cod"
        self._ffa = self.mode.family == "ffa"
        self._homes = tuple(HOME[side] for side in self.mode.sides)
        self._cloud = [False] * board.CELL_COUNT
        self._at: list[Plane | None] = [None] * board.CELL_COUNT
        self._planes: dict[int, Plane] = {}
        self._seats = [
            SeatState(reserve=n, handicap=h)
            for n, h in zip(self.settings.plane_counts(), self.settings.handicaps, strict=True)
        ]
        self._next_id = 0
        self._undo: list[_Snapshot] = []
        self._legal: list[Step] | None = None
        self.turn = 1
        self.active = 0
        self.actions = 0
        self.acted = frozenset()
        self.diving = -1
        self.result = None
        self.history = []
        self.start_position: str | None = None
        self.opening: tuple[Event, ...] = ()
        from rules.achievements import Tracker

        self.tracker = Tracker(self) if self.settings.cards else None
        if clouds is None:
            self.phase = SETUP
        else:
            for c in clouds:
                self._cloud[c] = True
            self.phase = PLAY
            self._begin_play()

    # ------------------------------------------------------------------ reading

    @property
    def clouds(self) -> frozenset[int]:
        return frozenset(c for c in board.CELLS if self._cloud[c])

    def is_cloud(self, cell: int) -> bool:
        return self._cloud[cell]

    @property
    def seats(self) -> int:
        return self.mode.seats

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, or None once the game is over."""
        return None if self.phase == OVER else self.active

    def planes(self, seat: int | None = None) -> list[Plane]:
        """Planes on the board (of one seat), in board order."""
        found = sorted(self._planes.values(), key=lambda p: p.cell)
        return found if seat is None else [p for p in found if p.seat == seat]

    def plane_at(self, cell: int) -> Plane | None:
        return self._at[cell]

    def plane(self, plane_id: int) -> Plane | None:
        return self._planes.get(plane_id)

    def seat(self, seat: int) -> SeatState:
        return self._seats[seat]

    def planes_left(self, seat: int) -> int:
        """Planes a seat still has, on the board and in reserve."""
        s = self._seats[seat]
        return s.reserve + sum(1 for p in self._planes.values() if p.seat == seat)

    def hostile(self, seat_a: int, seat_b: int) -> bool:
        return self._teams[seat_a] != self._teams[seat_b]

    def alive(self) -> list[int]:
        return [s for s in range(self.seats) if not self._seats[s].out]

    def right_neighbour(self, seat: int) -> int:
        """The previous seat in turn order still playing (Circle of Death's shooter)."""
        n = self.seats
        for k in range(1, n):
            s = (seat - k) % n
            if not self._seats[s].out:
                return s
        return seat

    def left_neighbour(self, seat: int) -> int:
        n = self.seats
        for k in range(1, n):
            s = (seat + k) % n
            if not self._seats[s].out:
                return s
        return seat

    def state_key(self) -> tuple[object, ...]:
        """Everything that decides what happens next, as a hashable value; two games
        with equal keys play on identically (plane ids and the record left aside)."""
        acted = frozenset(self._planes[i].cell for i in self.acted if i in self._planes)
        diving = self._planes[self.diving].cell if self.diving >= 0 else -1
        return (
            self.settings,
            self.phase,
            self.turn,
            self.active,
            self.actions,
            acted,
            diving,
            self.result,
            tuple(self._cloud),
            tuple(
                sorted((p.cell, p.seat, p.facing, p.height, p.ace) for p in self._planes.values())
            ),
            tuple(self._seats),
        )

    @property
    def ramp(self) -> int:
        """Actions this player-turn allows (ALL_ACTIONS once the opening is over)."""
        return self.mode.ramp(self.turn)

    @property
    def at_turn_start(self) -> bool:
        """No action has been taken yet in this player-turn (shots may have been)."""
        return self.phase == PLAY and self.actions == 0

    def line_of_fire(self, plane: Plane) -> list[int]:
        """The cells a plane's guns cover, nearest first; the last may hold its target."""
        if self._cloud[plane.cell] and not self._concealed:
            return []
        out = []
        for c in RAY[plane.cell * 6 + plane.facing]:
            if self._cloud[c]:
                break
            out.append(c)
            if self._at[c] is not None:
                break
        return out

    def target(self, plane: Plane) -> Plane | None:
        """The plane in ``plane``'s line of fire, if any (friend or foe)."""
        cells = self.line_of_fire(plane)
        return self._at[cells[-1]] if cells else None

    def caught(self) -> dict[int, tuple[Plane, ...]]:
        """Every caught plane (by id) with the hostile planes that have it in their sights."""
        return {v: tuple(s) for v, s in self._hits(-1).items() if len(s) >= 2}

    def _hits(self, spared_team: int) -> dict[int, list[Plane]]:
        """Each plane (by id) in the line of fire of planes hostile to it, with those
        planes; planes of ``spared_team`` are left out (-1: none)."""
        teams = self._teams
        at = self._at
        cloud = self._cloud
        concealed = self._concealed
        hits: dict[int, list[Plane]] = {}
        for p in self._planes.values():
            if cloud[p.cell] and not concealed:
                continue
            for c in RAY[p.cell * 6 + p.facing]:
                if cloud[c]:
                    break
                q = at[c]
                if q is not None:
                    tq = teams[q.seat]
                    if tq != teams[p.seat] and tq != spared_team:
                        hits.setdefault(q.id, []).append(p)
                    break
        return hits

    def _shootable(self) -> list[tuple[Plane, list[Plane]]]:
        """Planes the active seat may shoot down now, with their shooters, in board order."""
        hits = self._hits(self._teams[self.active])
        if not hits:
            return []
        found = []
        for vid, shooters in hits.items():
            if len(shooters) < 2:
                continue
            victim = self._planes[vid]
            if self._cod:
                right = self.right_neighbour(victim.seat)
                if not any(s.seat == right for s in shooters):
                    continue
            found.append((victim, shooters))
        found.sort(key=lambda vs: vs[0].cell)
        return found

    # ------------------------------------------------------------ legal steps

    def legal_steps(self) -> list[Step]:
        """Every step the seat to move may take now. Dive manoeuvres are listed one at a
        time; a crash only for a plane that can do nothing else."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def is_legal(self, step: Step) -> bool:
        if self._legal is None:
            self._legal = self._generate()
        return step in self._legal

    def _generate(self) -> list[Step]:
        if self.phase == PLAY:
            return self._generate_play()
        if self.phase == SETUP:
            return [steps.CLOUDS[c] for c in board.CELLS if self._cloud_allowed(c)]
        return []

    def _generate_play(self) -> list[Step]:
        out: list[Step] = []
        manual_shots = False
        if not self._auto:
            for victim, _ in self._shootable():
                out.append(steps.SHOTS[victim.cell])
                manual_shots = True
        at = self._at
        d = self.diving
        if d >= 0:
            _dive_steps(self._planes[d], at, out)
            out.append(steps.END_STEP)
        acted_any = False
        if self.actions < self.mode.ramp(self.turn):
            seat = self.active
            acted = self.acted
            climb_ok = not self._classic or self._seats[seat].rings > 0
            level = self._level
            for p in self._planes.values():
                if p.seat == seat and p.id not in acted:
                    _manoeuvre_steps(p, at, climb_ok, level, out)
                    acted_any = True
            if self._seats[seat].reserve:
                for c in self._homes[seat]:
                    if at[c] is None:
                        out.extend(steps.PLACEMENTS[c])
                        acted_any = True
        if d < 0 and manual_shots and not acted_any:
            out.append(steps.END_STEP)
        return out

    def _can_act(self) -> bool:
        """Whether the active seat may still take an action this player-turn."""
        if self.actions >= self.mode.ramp(self.turn):
            return False
        seat = self.active
        acted = self.acted
        for p in self._planes.values():
            if p.seat == seat and p.id not in acted:
                return True
        if self._seats[seat].reserve:
            at = self._at
            return any(at[c] is None for c in self._homes[seat])
        return False

    def _dive_may_go_on(self, p: Plane) -> bool:
        """Whether the dive of ``p`` stays open: it can go on now, or (manual fire) the
        plane blocking its way could still be shot down, by one shot or a series of them
        (a shot can open a line of fire, an elimination can take the blocker away)."""
        out: list[Step] = []
        _dive_steps(p, self._at, out)
        if out:
            return True
        if self._auto or p.height != 1:
            return False  # automatic fire has already fired; at 0 no shot helps
        ahead = NEIGHBOUR[p.cell * 6 + p.facing]
        return ahead >= 0 and self._shots_could_clear(ahead, set())

    def _shots_could_clear(self, cell: int, tried: set[frozenset[int]]) -> bool:
        """Whether some series of the active seat's shots leaves ``cell`` empty. Each
        shot is tried on a scratch copy; ``tried`` holds the sets of planes left after
        the series already searched, so orders that reach the same board count once."""
        for victim, shooters in self._shootable():
            scratch = self.copy(with_history=False)
            scratch._shoot(victim, shooters, [], automatic=False)
            if scratch.phase != PLAY:
                continue
            if scratch._at[cell] is None:
                return True
            left = frozenset(scratch._planes)
            if left not in tried:
                tried.add(left)
                if scratch._shots_could_clear(cell, tried):
                    return True
        return False

    def _cloud_allowed(self, c: int) -> bool:
        cloud = self._cloud
        if cloud[c]:
            return False
        if not self.settings.cloud_groups:
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

    # ---------------------------------------------------------------- playing

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

    def concede(self, seat: int, reason: str = "resign") -> tuple[Event, ...]:
        """A player resigns (or loses on time): they leave the game at once with all
        their planes, and nobody takes trophies for them. The others play on while more
        than one player or team is left."""
        if self.phase == OVER:
            raise RulesError("the game is already over")
        if not 0 <= seat < self.seats or self._seats[seat].out:
            raise RulesError("that seat is not playing")
        if reason not in ("resign", "timeout"):
            raise RulesError(f"unknown reason {reason!r}")
        if self.phase == SETUP:
            raise RulesError("the game has not started yet: abort it instead")
        self._undo.append(self._snapshot())
        ev: list[Event] = []
        for p in [p for p in self._planes.values() if p.seat == seat]:
            self._remove(p)
        self._seats[seat] = self._seats[seat]._replace(reserve=0, out=True)
        ev.append(events.Eliminated(seat, None, reason, -1))
        turn = self.turn
        if not self._check_end(ev) and seat == self.active:
            self._next_turn(ev)
            self._settle(ev)
        record = tuple(ev)
        self.history.append(Played(f"{reason}:{seat + 1}", seat, turn, record))
        self._legal = None
        return record

    def agree_draw(self) -> tuple[Event, ...]:
        """End the game drawn because every player still in it agreed."""
        if self.phase == OVER:
            raise RulesError("the game is already over")
        self._undo.append(self._snapshot())
        ev: list[Event] = [events.DrawAgreed()]
        self._finish((), "draw agreed", ev)
        record = tuple(ev)
        self.history.append(Played("draw", self.active, self.turn, record))
        self._legal = None
        return record

    # -------------------------------------------------------------- internals

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

    def _give_rings(self, seat: int, n: int) -> None:
        s = self._seats[seat]
        self._seats[seat] = s._replace(rings=s.rings + n)

    def _remove(self, p: Plane) -> None:
        self._at[p.cell] = None
        del self._planes[p.id]

    def _auto_fire(self, ev: list[Event]) -> None:
        # One shot at a time, looking again after each: a shot can open a line of fire,
        # and an elimination can take a shooter off the board.
        while self.phase == PLAY:
            found = self._shootable()
            if not found:
                return
            victim, shooters = found[0]
            self._shoot(victim, shooters, ev, automatic=True)

    def _shoot(
        self, victim: Plane, shooters: list[Plane], ev: list[Event], automatic: bool
    ) -> None:
        by = self.active
        self._remove(victim)
        if self._classic:
            self._give_rings(victim.seat, victim.height)
        ev.append(
            events.ShotDown(
                victim.seat, victim.id, victim.cell, by, tuple(s.id for s in shooters), automatic
            )
        )
        if self.tracker is not None:
            self.tracker.shot(victim, shooters, by, ev)
        if self._aces:
            for s in shooters:
                if not s.ace and s.id in self._planes:
                    ace = s._replace(ace=True)
                    self._planes[s.id] = ace
                    self._at[s.cell] = ace
                    ev.append(events.BecameAce(s.seat, s.id, s.cell))
        if self._ffa:
            self._take_trophy(by, victim.seat, ev)
        self._check_elimination(victim.seat, by, "shot", ev)

    def _take_trophy(self, by: int, from_seat: int, ev: list[Event]) -> None:
        s = self._seats[by]
        self._seats[by] = s._replace(trophies=s.trophies + 1)
        ev.append(events.TrophyTaken(by, from_seat, s.trophies + 1))

    def _check_elimination(self, seat: int, by: int | None, cause: str, ev: list[Event]) -> None:
        if self.planes_left(seat) > 1 or self._seats[seat].out:
            return
        last = next((p for p in self._planes.values() if p.seat == seat), None)
        last_cell = -1
        if last is not None:
            last_cell = last.cell
            self._remove(last)
        winner = self.right_neighbour(seat)
        self._seats[seat] = self._seats[seat]._replace(reserve=0, out=True)
        ev.append(events.Eliminated(seat, by if cause == "shot" else None, cause, last_cell))
        if self._ffa and by is not None and cause == "shot":
            self._take_trophy(by, seat, ev)
        if self._cod and cause == "shot":
            self._finish((winner,), "circle", ev)
            return
        self._check_end(ev)

    def _check_end(self, ev: list[Event]) -> bool:
        alive = self.alive()
        if len({self._teams[s] for s in alive}) > 1:
            return False
        if self._ffa and alive:
            best = max(s.trophies for s in self._seats)
            tied = tuple(i for i, s in enumerate(self._seats) if s.trophies == best)
            if len(tied) == 1:
                self._finish(tied, "most trophies", ev)
            elif alive[0] in tied:
                self._finish((alive[0],), "trophies tied: the player left wins", ev)
            else:
                self._finish(tied, "trophies tied: shared", ev)
        elif alive:
            # A team wins together, members already shot out of the sky included.
            team = self._teams[alive[0]]
            self._finish(
                tuple(s for s in range(self.seats) if self._teams[s] == team), "last standing", ev
            )
        return True

    def _finish(self, winners: tuple[int, ...], reason: str, ev: list[Event]) -> None:
        if self.phase == OVER:
            return
        self.diving = -1
        self.result = Result(winners, reason)
        self.phase = OVER
        if self.tracker is not None:
            self.tracker.game_over(winners, ev)
        ev.append(events.GameOver(winners, reason))

    # ------------------------------------------------------------ undo, copy

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            list(self._at),
            dict(self._planes),
            list(self._seats),
            list(self._cloud),
            self._next_id,
            self.phase,
            self.turn,
            self.active,
            self.actions,
            self.acted,
            self.diving,
            self.result,
            len(self.history),
            self.tracker.snapshot() if self.tracker is not None else None,
        )

    def _restore(self, snap: _Snapshot) -> None:
        self._at = snap.at
        self._planes = snap.planes
        self._seats = snap.seats
        self._cloud = snap.cloud
        self._next_id = snap.next_id
        self.phase = snap.phase
        self.turn = snap.turn
        self.active = snap.active
        self.actions = snap.actions
        self.acted = snap.acted
        self.diving = snap.diving
        self.result = snap.result
        del self.history[snap.history :]
        if self.tracker is not None and snap.tracker is not None:
            self.tracker.restore(snap.tracker)
        self._legal = None

    def copy(self, with_history: bool = True) -> Game:
        """An independent game in the same state (without the undo stack)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._at = list(self._at)
        other._planes = dict(self._planes)
        other._seats = list(self._seats)
        other._cloud = list(self._cloud)
        other._undo = []
        other._legal = None
        other.history = list(self.history) if with_history else []
        if self.tracker is not None:
            other.tracker = self.tracker.clone(other)
        return other

    # ------------------------------------------------------------ building

    @classmethod
    def _from_parts(
        cls,
        settings: Settings,
        clouds: Iterable[int],
        planes: Iterable[tuple[int, int, int, int, bool]],
        seats: list[SeatState],
        turn: int,
        active: int,
    ) -> Game:
        """A game about to start ``active``'s player-turn ``turn``; planes are (seat, cell,
        facing, height, ace). Used by position text, which then calls :meth:`begin`."""
        game = cls(settings, clouds=None)
        game.phase = PLAY
        for c in clouds:
            game._cloud[c] = True
        for seat, c, facing, height, ace in planes:
            p = Plane(game._next_id, seat, c, facing, height, ace)
            game._next_id += 1
            game._at[c] = p
            game._planes[p.id] = p
        game._seats = list(seats)
        game.turn = turn
        game.active = active
        return game

    def begin(self) -> None:
        """Start play of a game built by :meth:`_from_parts` (fires opening shots)."""
        self._begin_play()

    def why_illegal(self, step: Step) -> str:
        """A player-facing reason why ``step`` is not legal now."""
        from rules.explain import why_illegal

        return why_illegal(self, step)
