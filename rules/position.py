"""Position text (rules spec §10): a one-line description of a position at the start of
a player-turn, for tests, bug reports and puzzles::

    duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | k7SW3! h8W2 +1

Sections are separated by ``|``: the header (mode/ruleset, the player-turn number, the
variants or ``-``), the clouds (or ``-``), then one section per seat in turn order. A
seat lists its planes as ``<cell><facing><height>`` (``!`` marks an ace), then
``+<reserve>`` and optionally ``h<k>`` (handicap tokens), ``r<n>`` (classic: altitude
rings in supply, 20 minus the planes' heights when left out) and ``T<n>``
(free-for-all trophies). The seat to move begins with ``>``; an eliminated seat is ``x``,
or ``x T<n>`` in free-for-all when it took trophies (this project's addition: the
trophy count decides the winner even for players already out).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from rules import board
from rules.errors import PositionError, RulesError
from rules.modes import CLASSIC_RINGS, Settings, mode
from rules.variants import combined_rules, find_ruleset, in_order

if TYPE_CHECKING:
    from rules.game import Game, SeatState

# Explicit ASCII classes and bounded numbers: the text comes from users and files, and
# Unicode case folding or a 5,000-digit number must be refused, not crash int().
_PLANE: Final = re.compile(
    r"^([a-k](?:1[01]|[1-9]))(NE|NW|SE|SW|E|W)([0-6])(!?)$", re.IGNORECASE | re.ASCII
)
_COUNTER: Final = re.compile(r"^([+hrT])([0-9]{1,3})$")
MAX_TEXT: Final = 1000  # far more than any position needs (six seats of six planes)
MAX_TURN: Final = 100_000
# The largest value of each counter: reserve and handicap are at most a side's six planes,
# rings at most the classic supply, trophies at most every other plane of five rivals.
COUNTER_MAX: Final = {"+": 6, "h": 6, "r": CLASSIC_RINGS, "T": 30}


def parse(text: str, **settings: object) -> Game:
    """The game standing at the position ``text`` describes. Keyword arguments set what
    position text does not carry (``fire``, ``cards``, ``turn_limit`` …)."""
    from rules.game import Game, SeatState

    if len(text) > MAX_TEXT:
        raise PositionError(f"position text is at most {MAX_TEXT} characters")
    sections = [s.strip() for s in text.strip().split("|")]
    if len(sections) < 3:
        raise PositionError("position text needs a header, the clouds and the seats, split by '|'")
    header = sections[0].split()
    if len(header) != 3:
        raise PositionError("the header is '<mode>/<ruleset> t<turn> <variants or ->'")
    mode_text, _, ruleset = header[0].partition("/")
    try:
        m = mode(mode_text)
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    try:
        find_ruleset(ruleset)
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    if not re.fullmatch(r"t[1-9][0-9]{0,5}", header[1]) or int(header[1][1:]) > MAX_TURN:
        raise PositionError(
            f"{header[1]!r}: the player-turn is written t<number> up to t{MAX_TURN}, e.g. t9"
        )
    turn = int(header[1][1:])
    variants = frozenset() if header[2] == "-" else frozenset(header[2].lower().split(","))
    try:
        rules = combined_rules(ruleset, str(settings.get("fire", "auto")), variants)
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    clouds = _cells(sections[1])
    seat_texts = sections[2:]
    if len(seat_texts) != m.seats:
        raise PositionError(f"{m.title} has {m.seats} seats; the text lists {len(seat_texts)}")
    planes: list[tuple[int, int, int, int, bool]] = []
    seats: list[SeatState] = []
    to_move: list[int] = []
    occupied: set[int] = set()
    for seat, seat_text in enumerate(seat_texts):
        tokens = seat_text.split()
        if tokens and tokens[0].startswith(">"):
            to_move.append(seat)
            tokens[0] = tokens[0][1:]
            if not tokens[0]:
                tokens.pop(0)
        if tokens[:1] == ["x"]:
            trophies = _COUNTER.match(tokens[1]) if len(tokens) == 2 else None
            if trophies is not None and trophies.group(1) != "T":
                trophies = None
            if len(tokens) > 1 and (trophies is None or not m.family.trophies):
                raise PositionError(f"seat {seat + 1}: an eliminated seat is 'x' (or 'x T<n>')")
            seats.append(
                SeatState(
                    reserve=0,
                    rings=0,
                    out=True,
                    trophies=_counter(seat, "T", trophies.group(2)) if trophies else 0,
                )
            )
            continue
        own: list[tuple[int, int, int, int, bool]] = []
        counters: dict[str, int] = {}
        for token in tokens:
            pm = _PLANE.match(token)
            cm = _COUNTER.match(token)
            if pm:
                c = _cells(pm.group(1))[0]
                if c in occupied:
                    raise PositionError(f"two planes at {board.name(c)}")
                occupied.add(c)
                ace = pm.group(4) == "!"
                if ace and not rules.aces:
                    raise PositionError(f"{token!r}: aces ('!') need the aces variant")
                own.append((seat, c, board.direction(pm.group(2)), int(pm.group(3)), ace))
            elif cm and cm.group(1) not in counters:
                counters[cm.group(1)] = _counter(seat, cm.group(1), cm.group(2))
            else:
                raise PositionError(f"seat {seat + 1}: cannot read {token!r}")
        if "+" not in counters:
            raise PositionError(f"seat {seat + 1}: the reserve (+<n>) is missing")
        if "r" in counters and not rules.rings:
            raise PositionError(f"seat {seat + 1}: rings (r<n>) exist only in the classic ruleset")
        if "T" in counters and not m.family.trophies:
            raise PositionError(f"seat {seat + 1}: trophies (T<n>) exist only in free-for-all")
        if len(own) + counters["+"] < 2:
            raise PositionError(f"seat {seat + 1} has fewer than two planes: write it as 'x'")
        heights = sum(p[3] for p in own)
        seats.append(
            SeatState(
                reserve=counters["+"],
                handicap=counters.get("h", 0),
                rings=counters.get("r", CLASSIC_RINGS - heights),
                trophies=counters.get("T", 0),
            )
        )
        planes.extend(own)
    if len(to_move) != 1:
        raise PositionError("exactly one seat must be marked as the one to move ('>')")
    if seats[to_move[0]].out:
        raise PositionError("the seat to move is eliminated")
    if len({m.teams[s] for s in range(m.seats) if not seats[s].out}) < 2:
        raise PositionError("the game is already over: fewer than two sides are left")
    sizes = [sum(1 for p in planes if p[0] == s) + seats[s].reserve for s in range(m.seats)]
    most = max(sizes)
    try:
        chosen = Settings(
            mode=m.key,
            ruleset=ruleset,
            variants=variants,
            planes=most if m.allows_plane_count and 3 <= most <= 6 else None,
            handicaps=tuple(min(s.handicap, 6) for s in seats),
            cloud_groups=False,
            **settings,  # type: ignore[arg-type]
        )
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    game = Game._from_parts(chosen, clouds, planes, seats, turn, to_move[0])
    game.start_position = format_position(game)
    game.begin()
    return game


def _counter(seat: int, kind: str, digits: str) -> int:
    value = int(digits)
    if value > COUNTER_MAX[kind]:
        raise PositionError(f"seat {seat + 1}: {kind}{digits} is more than {COUNTER_MAX[kind]}")
    return value


def _cells(text: str) -> list[int]:
    if text == "-":
        return []
    found = []
    for token in text.split():
        try:
            found.append(board.cell(token))
        except ValueError as exc:
            raise PositionError(str(exc)) from None
    if len(set(found)) != len(found):
        raise PositionError("a cloud is listed twice")
    return found


def format_position(game: Game) -> str:
    """The position text of a game standing at the start of a player-turn."""
    if not game.at_turn_start:
        raise RulesError("position text describes the start of a player-turn only")
    s = game.settings
    variants = ",".join(in_order(s.variants)) or "-"
    clouds = " ".join(board.name(c) for c in sorted(game.clouds)) or "-"
    parts = [f"{s.mode}/{s.ruleset} t{game.turn} {variants}", clouds]
    for seat in range(game.seats):
        state = game.seat(seat)
        if state.out:
            parts.append(f"x T{state.trophies}" if state.trophies else "x")
            continue
        own = game.planes(seat)
        words = [
            f"{board.name(p.cell)}{board.DIRECTIONS[p.facing]}{p.height}{'!' if p.ace else ''}"
            for p in own
        ]
        words.append(f"+{state.reserve}")
        if state.handicap:
            words.append(f"h{state.handicap}")
        if s.rules.rings and state.rings != CLASSIC_RINGS - sum(p.height for p in own):
            words.append(f"r{state.rings}")
        if game.mode.family.trophies and state.trophies:
            words.append(f"T{state.trophies}")
        if seat == game.active:
            words[0] = ">" + words[0]
        parts.append(" ".join(words))
    return " | ".join(parts)
