"""An independent brute-force Swiss pairer for small fields, from the documented objective.

It shares nothing with ``swiss.py`` but the records: it enumerates every pairing of the
field (plus a bye when it is odd), scores each with the six levels of
docs/tournaments.md, seats each pair the cheaper way round, and returns the least total,
compared level by level.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from competition.model import Entrant, Pairing, PairingResult

Total = tuple[int, int, int, int, int, int]
Facts = tuple[list[str], dict[str, int], dict[str, str], list[frozenset[str]], set[str]]


def _facts(players: Sequence[Entrant], history: Sequence[PairingResult]) -> Facts:
    halves: dict[str, int] = {e.id: 0 for e in players}
    seats: dict[str, str] = {}
    met: list[frozenset[str]] = []
    byes: set[str] = set()
    for r in history:
        for pid, pts in zip(r.seats, r.points, strict=True):
            if pid in halves:
                halves[pid] += round(2 * pts)
        if len(r.seats) == 1:
            byes.add(r.seats[0])
        if len(r.seats) == 2:
            met.append(frozenset(r.seats))
            if not r.forfeit:
                seats[r.seats[0]] = seats.get(r.seats[0], "") + "F"
                seats[r.seats[1]] = seats.get(r.seats[1], "") + "S"
    order = [e.id for e in sorted(players, key=lambda e: (-halves[e.id], -e.rating, e.seed))]
    return order, halves, seats, met, byes


def _seat(history: str, seat: str) -> tuple[int, int]:
    after = history + seat
    hard = 0
    if abs(after.count("F") - after.count("S")) > 2:
        hard += 1
    if len(after) >= 3 and after[-3:] in ("FFF", "SSS"):
        hard += 1
    lean = history.count("F") - history.count("S")
    if lean > 0:
        soft = 2 if seat == "F" else 0
    elif lean < 0:
        soft = 2 if seat == "S" else 0
    else:
        soft = 1 if history.endswith(seat) else 0
    return hard, soft


def evaluate(
    players: Sequence[Entrant], history: Sequence[PairingResult], pairings: Sequence[Pairing]
) -> Total:
    """The levels of a pairing exactly as seated."""
    return _evaluate(_facts(players, history), pairings)


def _evaluate(facts: Facts, pairings: Sequence[Pairing]) -> Total:
    order, halves, seats, met, byes = facts
    total = [0] * 6
    groups: dict[int, list[str]] = {}
    for pid in order:
        groups.setdefault(halves[pid], []).append(pid)
    for p in pairings:
        if len(p.seats) == 1:
            (alone,) = p.seats
            total[0] += alone in byes
            total[1] += len(order) - 1 - order.index(alone)
            continue
        a, b = p.seats
        total[0] += met.count(frozenset((a, b)))
        ha, sa = _seat(seats.get(a, ""), "F")
        hb, sb = _seat(seats.get(b, ""), "S")
        total[2] += ha + hb
        total[3] += (halves[a] - halves[b]) ** 2
        total[4] += sa + sb
        if halves[a] == halves[b]:
            group = groups[halves[a]]
            total[5] += abs(abs(group.index(a) - group.index(b)) - len(group) // 2)
    return (total[0], total[1], total[2], total[3], total[4], total[5])


def _matchings(ids: list[str]) -> Iterator[list[tuple[str, ...]]]:
    if not ids:
        yield []
        return
    head, rest = ids[0], ids[1:]
    if len(ids) % 2:
        for tail in _matchings(rest):
            yield [(head,), *tail]
    for k, other in enumerate(rest):
        for tail in _matchings(rest[:k] + rest[k + 1 :]):
            yield [(head, other), *tail]


def optimum(players: Sequence[Entrant], history: Sequence[PairingResult]) -> Total:
    """The least total over every pairing of the field, each pair seated its better way."""
    ids = [e.id for e in players]
    facts = _facts(players, history)
    best: Total | None = None
    for matching in _matchings(ids):
        pairings: list[Pairing] = []
        for seats in matching:
            if len(seats) == 1:
                pairings.append(Pairing(seats))
                continue
            one, other = (_evaluate(facts, [Pairing(s)]) for s in (seats, seats[::-1]))
            pairings.append(Pairing(seats if one <= other else seats[::-1]))
        total = _evaluate(facts, pairings)
        if best is None or total < best:
            best = total
    assert best is not None
    return best
