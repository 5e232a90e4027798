"""Player-turns told in words: every placement, manoeuvre, shot, crash and elimination
in order, each with its notation beside it, so that a reader who never sees the board
can follow the game.

The game is replayed from its start, because a sentence needs the planes as they stood
when each event happened (which cells the shooters held, what a plane faced), and plane
ids of a game built from position text need not match those of its saved start. One
replay (:func:`tell`) gives everything a front end shows of a state — the turns so far,
what the last steps did — so it is worth computing once per state and sharing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from i18n import N_, _, n_
from rules import board, events, notation, serialize, steps
from rules.achievements import CARDS
from rules.events import Event
from rules.steps import Step
from rules.words.common import direction, join, result_line, seat_name

if TYPE_CHECKING:
    from rules.game import Game, Plane

SETUP_TURN = 0  # the turn number under which cloud placements are told


class Sentence(NamedTuple):
    """One thing that happened. ``kind`` lets a front end decorate it (place, move,
    end, shot, crash, ace, trophy, out, card, draw, result, cloud)."""

    kind: str
    text: str


class Told(NamedTuple):
    """A player-turn in words (turn 0: the cloud setup)."""

    turn: int
    seat: int
    notation: str  # the turn's tokens (rules spec §9), e.g. "a1X a4SS>*f7"
    sentences: tuple[Sentence, ...]


class Telling(NamedTuple):
    """A game told in words by one replay: its player-turns that had anything to tell,
    and the sentences of each entry of its record (``game.history``), in order."""

    turns: tuple[Told, ...]
    entries: tuple[tuple[Sentence, ...], ...]


# "{who}'s plane climbs{on} from {start} to {end}" / "… at {start}" (on: " on", a
# dive carried on), as whole sentences so that each language orders them its own way
_MOVES = {
    steps.CLIMB: (
        N_("{who}'s plane climbs from {start} to {end}"),
        N_("{who}'s plane climbs at {start}"),
    ),
    steps.LEVEL: (
        N_("{who}'s plane flies level from {start} to {end}"),
        N_("{who}'s plane flies level at {start}"),
    ),
    steps.LEVEL1: (
        N_("{who}'s plane flies level from {start} to {end}"),
        N_("{who}'s plane flies level at {start}"),
    ),
    steps.SWOOP: (
        N_("{who}'s plane swoops from {start} to {end}"),
        N_("{who}'s plane swoops at {start}"),
    ),
    steps.POWER: (
        N_("{who}'s plane power dives from {start} to {end}"),
        N_("{who}'s plane power dives at {start}"),
    ),
}
_MOVES_ON = {
    steps.SWOOP: (
        N_("{who}'s plane swoops on from {start} to {end}"),
        N_("{who}'s plane swoops on at {start}"),
    ),
    steps.POWER: (
        N_("{who}'s plane power dives on from {start} to {end}"),
        N_("{who}'s plane power dives on at {start}"),
    ),
}


class _Teller:
    """Turns (token, events) pairs into sentences, keeping the planes up to date."""

    def __init__(self, game: Game, names: Sequence[str], planes: Iterable[Plane]) -> None:
        self.game = game
        self.names = names
        self.planes = {p.id: p for p in planes}
        self.diving = -1  # the plane whose dive the last step began or continued

    def who(self, seat: int) -> str:
        return seat_name(self.game, self.names, seat)

    def step(self, token: str | None, seat: int, happened: Sequence[Event]) -> list[Sentence]:
        """Sentences for one record entry (``token`` None: events with no step of their
        own, such as shots fired as a turn begins)."""
        out: list[Sentence] = []
        rest = list(happened)
        if token == "draw":
            out.append(Sentence("draw", _("The players agree to a draw")))
        elif token is not None and ":" not in token:  # resign:2 is told by its event
            out.extend(self._own(Step.parse(token), seat, rest))
        for e in rest:
            out.extend(self._event(e))
        return out

    def _own(self, step: Step, seat: int, rest: list[Event]) -> list[Sentence]:
        """The sentence of the step itself; consumes the events it explains from ``rest``."""
        who = self.who(seat)
        kind = step.kind
        if kind == steps.CLOUD:
            self._take(rest, events.CloudPlaced)
            said = _("{who} places a cloud at {cell}", who=who, cell=board.name(step.cell))
            return [Sentence("cloud", f"{said} ({step})")]
        if kind == steps.PLACE:
            e = self._take(rest, events.Placed)
            assert isinstance(e, events.Placed)
            self._apply(e)
            said = _(
                "{who} brings a plane on at {cell}, facing {direction}, height {height}",
                who=who,
                cell=board.name(e.cell),
                direction=direction(e.facing),
                height=e.height,
            )
            if e.height:
                said = _("{said} (a handicap token)", said=said)
            return [Sentence("place", f"{said} ({step})")]
        if kind == steps.SHOOT:
            return []  # the ShotDown event among ``rest`` tells it, with this token
        if kind == steps.END:
            ended = self._take(rest, events.DiveEnded)
            self.diving = -1
            if isinstance(ended, events.DiveEnded):
                where = board.name(ended.cell)
                said = _("{who} ends the dive of the plane at {cell}", who=who, cell=where)
                return [Sentence("end", f"{said} (-)")]
            return [Sentence("end", _("{who} holds fire and ends the turn", who=who) + " (-)")]
        if kind == steps.CRASH:
            e = self._take(rest, events.Crashed)
            assert isinstance(e, events.Crashed)
            self._apply(e)
            where = board.name(e.cell)
            said = _("{who}'s plane at {cell} cannot fly on and crashes", who=who, cell=where)
            return [Sentence("crash", f"{said} ({step})")]
        return [self._manoeuvre(step, who, rest)]

    def _manoeuvre(self, step: Step, who: str, rest: list[Event]) -> Sentence:
        plane = self.planes[self._plane_at(step.cell)]
        start = board.name(plane.cell)
        carried_on = step.is_dive and self.diving == plane.id
        self.diving = plane.id if step.is_dive else -1
        bumps: list[str] = []
        while rest and isinstance(rest[0], events.Moved | events.Turned | events.HeightChanged):
            e = rest.pop(0)
            if isinstance(e, events.HeightChanged) and e.cause == "turbulence":
                bumps.append(board.name(e.cell))
            self._apply(e)
        now = self.planes[plane.id]
        end = board.name(now.cell)
        facing = direction(now.facing)
        if step.kind == steps.IMMELMANN:
            what = _(
                "{who}'s plane makes an Immelmann at {start} and turns about", who=who, start=start
            )
            turn = _("to face {direction}", direction=facing)
        else:
            moves = (_MOVES_ON if carried_on and step.kind in _MOVES_ON else _MOVES)[step.kind]
            what = _(moves[0] if end != start else moves[1], who=who, start=start, end=end)
            if step.turn == steps.LEFT:
                turn = _("turns left to face {direction}", direction=facing)
            elif step.turn == steps.RIGHT:
                turn = _("turns right to face {direction}", direction=facing)
            else:
                turn = _("still facing {direction}", direction=facing)
        if bumps:
            what = _(
                "{what}, loses height in the turbulence of the cloud at {cells}",
                what=what,
                cells=join(bumps),
            )
        text = _("{what}, {turn}, now height {height}", what=what, turn=turn, height=now.height)
        return Sentence("move", f"{text} ({step})")

    def _event(self, e: Event) -> list[Sentence]:
        """Sentences for what followed a step: shots, aces, trophies, eliminations."""
        if isinstance(e, events.ShotDown):
            shooters = join(board.name(self.planes[s].cell) for s in e.shooters)
            victim = self.who(e.seat)
            where = board.name(e.cell)
            self._apply(e)
            said = _(
                "{who} shoots down {victim}'s plane at {cell}, caught by the planes at {cells}",
                who=self.who(e.by),
                victim=victim,
                cell=where,
                cells=shooters,
            )
            if e.automatic:
                said = _("Automatic fire: {said}", said=said)
            return [Sentence("shot", f"{said} (*{where})")]
        if isinstance(e, events.BecameAce):
            self._apply(e)
            where = board.name(e.cell)
            said = _("{who}'s plane at {cell} becomes an ace", who=self.who(e.seat), cell=where)
            return [Sentence("ace", said)]
        if isinstance(e, events.TrophyTaken):
            said = n_(
                "{who} takes a trophy from {other}, now {n} trophy",
                "{who} takes a trophy from {other}, now {n} trophies",
                e.trophies,
                who=self.who(e.seat),
                other=self.who(e.from_seat),
            )
            return [Sentence("trophy", said)]
        if isinstance(e, events.Eliminated):
            self._apply(e)
            return [Sentence("out", self._out(e))]
        if isinstance(e, events.CardClaimed):
            card = CARDS[e.card]
            said = n_(
                "{who} claims the card {card} ({n} point)",
                "{who} claims the card {card} ({n} points)",
                card.points,
                who=self.who(e.seat),
                card=_(card.name),
            )
            return [Sentence("card", said)]
        if isinstance(e, events.GameOver):
            return [Sentence("result", result_line(self.game, self.names)[:-1])]
        self._apply(e)
        return []

    def _out(self, e: events.Eliminated) -> str:
        who = self.who(e.seat)
        if e.cause == "resign":
            return _("{who} resigns and is out", who=who)
        if e.cause == "timeout":
            return _("{who} runs out of time and is out", who=who)
        if e.last_cell >= 0:
            return _(
                "{who} is out with only one plane left: their last plane leaves the board "
                "from {cell}",
                who=who,
                cell=board.name(e.last_cell),
            )
        return _("{who} is out with only one plane left: their last plane never took off", who=who)

    def _take(self, rest: list[Event], kind: type) -> Event | None:
        for i, e in enumerate(rest):
            if isinstance(e, kind):
                return rest.pop(i)
        return None

    def _plane_at(self, c: int) -> int:
        return next(p.id for p in self.planes.values() if p.cell == c)

    def _apply(self, e: Event) -> None:
        """Keep the planes as they stand after ``e``."""
        planes = self.planes
        if isinstance(e, events.Placed):
            planes[e.plane] = _plane(e.plane, e.seat, e.cell, e.facing, e.height)
        elif isinstance(e, events.Moved):
            planes[e.plane] = planes[e.plane]._replace(cell=e.path[-1])
        elif isinstance(e, events.Turned):
            planes[e.plane] = planes[e.plane]._replace(facing=e.facing)
        elif isinstance(e, events.HeightChanged):
            planes[e.plane] = planes[e.plane]._replace(height=e.height)
        elif isinstance(e, events.BecameAce):
            planes[e.plane] = planes[e.plane]._replace(ace=True)
        elif isinstance(e, events.ShotDown | events.Crashed):
            planes.pop(e.plane, None)
        elif isinstance(e, events.Eliminated):
            for pid in [pid for pid, p in planes.items() if p.seat == e.seat]:
                del planes[pid]


def _plane(pid: int, seat: int, c: int, f: int, h: int) -> Plane:
    from rules.game import Plane

    return Plane(pid, seat, c, f, h)


def _replay(game: Game) -> tuple[Game, Iterator[tuple[str, int, int, tuple[Event, ...]]]]:
    """A fresh copy of the game's start, and an iterator that plays its record on it
    yielding (token, seat, turn, events) per entry."""
    data = serialize.to_dict(game)
    data["steps"] = []
    start = serialize.from_dict(data)

    def entries() -> Iterator[tuple[str, int, int, tuple[Event, ...]]]:
        for played in game.history:
            serialize.apply_record(start, played.token)
            again = start.history[-1]
            yield again.token, again.seat, again.turn, again.events

    return start, entries()


def tell_turns(game: Game, names: Sequence[str] = ()) -> list[Told]:
    """The whole game, one :class:`Told` per player-turn that had anything to tell."""
    return list(tell(game, names).turns)


def tell(game: Game, names: Sequence[str] = ()) -> Telling:
    """The whole game in words, from one replay (see :class:`Telling`)."""
    start, entries = _replay(game)
    teller = _Teller(game, names, start.planes())
    told: dict[int, list[Sentence]] = {}
    seats: dict[int, int] = {}
    turn = start.turn if start.phase == "play" else SETUP_TURN
    seats[turn] = start.active

    said: list[tuple[Sentence, ...]] = []

    def follow(token: str | None, seat: int, happened: Sequence[Event]) -> list[Sentence]:
        """Tell one entry; shots fired at the start of the next turn belong to that turn."""
        nonlocal turn
        before: list[Event] = []
        after: list[tuple[int, Event]] = []
        for e in happened:
            if isinstance(e, events.TurnPassed):
                after.append((e.turn, e))
            elif after:
                after.append((after[-1][0], e))
            else:
                before.append(e)
        out = teller.step(token, seat, before)
        told.setdefault(turn, []).extend(out)
        for t, e in after:
            if isinstance(e, events.TurnPassed):
                turn = t
                seats[t] = e.seat
            else:
                more = teller.step(None, seat, [e])
                told.setdefault(t, []).extend(more)
                out.extend(more)
        return out

    follow(None, start.active, start.opening)
    for token, seat, _turn, happened in entries:
        said.append(tuple(follow(token, seat, happened)))
    tokens = {t: line for t, _seat, line in notation.turn_texts(game)}
    turns = tuple(
        Told(t, seats.get(t, 0), tokens.get(t, ""), tuple(s)) for t, s in sorted(told.items()) if s
    )
    return Telling(turns, tuple(said))


def told_text(game: Game, told: Told, names: Sequence[str] = ()) -> str:
    """A player-turn as a short paragraph: a heading line, then one line per sentence."""
    if told.turn == SETUP_TURN:
        head = _("Setup")
    else:
        head = _("Turn {turn}, {who}", turn=told.turn, who=seat_name(game, names, told.seat))
    if told.notation:
        head += f" ({told.notation})"
    return "\n".join([f"{head}:", *(f"- {s.text}." for s in told.sentences)])


def record_text(game: Game, names: Sequence[str] = ()) -> str:
    """The whole game record in words, turn by turn."""
    return "\n\n".join(told_text(game, t, names) for t in tell_turns(game, names))


def tell_events(
    game: Game, names: Sequence[str], happened: Sequence[Event], telling: Telling | None = None
) -> list[Sentence]:
    """The sentences of the game's last steps, whose events ``happened`` are (as
    :meth:`Game.play` and :meth:`Game.concede` returned them, in order). ``telling`` is
    the game's :func:`tell`, when the caller already has it."""
    count = 0
    size = 0
    for played in reversed(game.history):
        if size >= len(happened):
            break
        size += len(played.events)
        count += 1
    if size != len(happened):
        raise ValueError("the events are not those of the game's last steps")
    entries = (telling or tell(game, names)).entries
    return [s for said in entries[len(entries) - count :] for s in said]
