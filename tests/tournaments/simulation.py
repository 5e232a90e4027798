"""Seeded random tournaments with their invariants checked after every round.

Used by the test suite with a reduced count and by ``bench/tournament.py`` with the full
one. Each event draws its format and field at random: Swiss duels of 4-64 players with
draws, byes, withdrawals, forfeits and late entries; single and double elimination of
2-70; single and double round robins; Swiss tables of 3-6. Fields of at most
``BRUTE_UP_TO`` are also paired by the independent brute force (``brute.py``), whose
optimum the pairer must equal level by level.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from competition.elimination import LOSERS, WINNERS, Bracket
from competition.model import Entrant, Pairing, PairingResult, placement_points
from competition.roundrobin import double_schedule, schedule
from competition.standings import standings
from competition.swiss import pair_duels
from competition.tables import pair_tables
from tournaments.brute import evaluate, optimum

BRUTE_UP_TO = 10


@dataclass
class Tally:
    events: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    brute_checked: int = 0
    losers_games: int = 0


def entrant(i: int, rng: random.Random) -> Entrant:
    return Entrant(f"p{i}", float(rng.randrange(1000, 2000)), i)


def rematch_free(
    ids: list[str], met: set[frozenset[str]], had_bye: set[str], bye: str | None
) -> bool:
    """Backtracking: can ``ids`` be paired with no rematch and no second bye, the bye (if
    given) going to ``bye``?"""
    if bye is not None:
        if bye in had_bye:
            return False
        ids = [p for p in ids if p != bye]

    def search(left: list[str]) -> bool:
        if not left:
            return True
        head, rest = left[0], left[1:]
        if len(left) % 2 and head not in had_bye and search(rest):
            return True
        return any(
            frozenset((head, other)) not in met and search(rest[:k] + rest[k + 1 :])
            for k, other in enumerate(rest)
        )

    return search(ids)


def check_standings(
    entrants: list[Entrant], results: list[PairingResult], points: dict[str, float]
) -> None:
    table = standings(entrants, results)
    # Placement points come in thirds and sixths: compare them rounded.
    shown = {s.player: round(s.score, 6) for s in table}
    assert shown == {e.id: round(points.get(e.id, 0.0), 6) for e in entrants}
    assert [s.score for s in table] == sorted((s.score for s in table), reverse=True)
    assert [s.place for s in table] == sorted(s.place for s in table)


def swiss_event(rng: random.Random, tally: Tally) -> None:
    n = rng.randint(4, 64)
    everyone = [entrant(i, rng) for i in range(1, n + 1)]
    active = list(everyone)
    history: list[PairingResult] = []
    points: defaultdict[str, float] = defaultdict(float)
    for _ in range(min(math.ceil(math.log2(n)) + 2, n - 1)):
        if rng.random() < 0.15 and len(active) > 4:
            active.remove(rng.choice(active))  # a withdrawal
        if rng.random() < 0.1:
            late = entrant(len(everyone) + 1, rng)  # a late entry, on zero points
            everyone.append(late)
            active.append(late)
        pairings = pair_duels(active, history)
        check_swiss_round(active, history, pairings, tally)
        for p in pairings:
            if p.is_bye:
                result = PairingResult.bye(p.seats[0])
            else:
                forfeit = rng.random() < 0.05
                first, second = p.seats
                result = PairingResult.duel(
                    first, second, rng.choice((1.0, 0.5, 0.0)), forfeit=forfeit
                )
            history.append(result)
            for seat, pts in zip(result.seats, result.points, strict=True):
                points[seat] += pts
    check_standings(everyone, history, points)


def check_swiss_round(
    active: list[Entrant], history: list[PairingResult], pairings: list[Pairing], tally: Tally
) -> None:
    tally.rounds += 1
    ids = [e.id for e in active]
    assert sorted(s for p in pairings for s in p.seats) == sorted(ids)
    assert sum(p.is_bye for p in pairings) == len(ids) % 2
    met = {frozenset(r.seats) for r in history if len(r.seats) == 2}
    had_bye = {r.seats[0] for r in history if r.is_bye}
    got = evaluate(active, history, pairings)
    if len(ids) <= BRUTE_UP_TO:
        tally.brute_checked += 1
        assert got == optimum(active, history), (got, ids, history)
        return
    if got[0]:
        assert not rematch_free(ids, met, had_bye, None), "avoidable rematch or second bye"
        return
    bye = next((p.seats[0] for p in pairings if p.is_bye), None)
    if bye is not None:
        # The bye rule: nobody lower without a bye could have taken it without a rematch.
        points: defaultdict[str, float] = defaultdict(float)
        for r in history:
            for seat, pts in zip(r.seats, r.points, strict=True):
                points[seat] += pts
        order = [e.id for e in sorted(active, key=lambda e: (-points[e.id], -e.rating, e.seed))]
        for lower in order[order.index(bye) + 1 :]:
            assert not rematch_free(ids, met, had_bye, lower), f"bye rule: {lower} before {bye}"
    assert got[2] == 0, "colour break in a field big enough to avoid it"


def elimination_event(rng: random.Random, tally: Tally, double: bool) -> None:
    n = rng.randint(2, 70)
    names = [f"s{i}" for i in range(1, n + 1)]
    bracket = Bracket.double(names, rng.random() < 0.5) if double else Bracket.single(names)
    winners_met: set[frozenset[str]] = set()
    losses: Counter[str] = Counter()
    while ready := bracket.ready():
        match = rng.choice(ready)
        assert match.first is not None and match.second is not None
        pair = frozenset((match.first, match.second))
        if match.side == WINNERS:
            winners_met.add(pair)
        winner = rng.choice((match.first, match.second))
        loser = match.second if winner == match.first else match.first
        bracket.report(match.id, winner)
        losses[loser] += 1
    champion = bracket.champion()
    assert champion is not None
    assert losses[champion] <= (1 if double else 0)
    assert all(losses[p] >= 1 for p in names if p != champion)
    tally.losers_games += sum(m.side == LOSERS and m.winner is not None for m in bracket.matches())
    if double:
        check_drop_waves(bracket, winners_met)


def check_drop_waves(bracket: Bracket, winners_met: set[frozenset[str]]) -> None:
    """A losers' round that takes drops has a winners'-bracket rematch only if every way of
    dropping that wave's losers onto its survivors has one."""
    even_rounds = {m.round for m in bracket.matches() if m.side == LOSERS and m.round % 2 == 0}
    for number in sorted(even_rounds):
        wave = [m for m in bracket.matches() if m.side == LOSERS and m.round == number]
        survivors, drops = [m.first for m in wave], [m.second for m in wave]
        clash = any(
            a is not None and b is not None and frozenset((a, b)) in winners_met
            for a, b in zip(survivors, drops, strict=True)
        )
        if clash:
            assert not _rematch_free_wave(survivors, drops, winners_met), number


def _rematch_free_wave(
    survivors: list[str | None], drops: list[str | None], met: set[frozenset[str]]
) -> bool:
    """Kuhn's augmenting paths: can every survivor get a drop they have not met?"""

    def fits(i: int, k: int) -> bool:
        a, b = survivors[i], drops[k]
        return a is None or b is None or frozenset((a, b)) not in met

    taken: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for k in range(len(drops)):
            if fits(i, k) and k not in seen:
                seen.add(k)
                if k not in taken or augment(taken[k], seen):
                    taken[k] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(survivors)))


def round_robin_event(rng: random.Random, tally: Tally, double: bool) -> None:
    n = rng.randint(3, 12)
    names = [f"r{i}" for i in range(1, n + 1)]
    rounds = double_schedule(names) if double else schedule(names)
    cycles = 2 if double else 1
    meetings = Counter(p.seats for rnd in rounds for p in rnd if not p.is_bye)
    pairs = Counter(frozenset(s) for s in meetings.elements())
    assert all(
        pairs[frozenset((a, b))] == cycles for i, a in enumerate(names) for b in names[i + 1 :]
    )
    if double:
        assert all(count == 1 for count in meetings.values())  # each way round once
    byes = Counter(p.seats[0] for rnd in rounds for p in rnd if p.is_bye)
    assert all(byes[p] == cycles * (n % 2) for p in names)
    tally.rounds += len(rounds)


def tables_event(rng: random.Random, tally: Tally) -> None:
    size = rng.randint(3, 6)
    n = rng.randint(size, 24)
    players = [entrant(i, rng) for i in range(1, n + 1)]
    history: list[PairingResult] = []
    points: defaultdict[str, float] = defaultdict(float)
    # The table heuristic's random kicks make big, tight fields slow: 24 and 3 rounds.
    for _ in range(3):
        pairings = pair_tables(players, history, size, min_size=max(2, size - 1))
        tally.rounds += 1
        assert sorted(s for p in pairings for s in p.seats) == sorted(e.id for e in players)
        for p in pairings:
            places = [rng.randint(1, len(p.seats)) for _ in p.seats] if len(p.seats) > 1 else []
            result = (
                PairingResult(p.seats, _places(places)) if places else PairingResult.bye(p.seats[0])
            )
            history.append(result)
            for seat, pts in zip(result.seats, result.points, strict=True):
                points[seat] += pts
    check_standings(players, history, points)


def _places(raw: list[int]) -> tuple[float, ...]:
    """Placement points for random finishing values (equal values tie)."""
    ranked = sorted(set(raw))
    places: list[int] = []
    for value in raw:
        places.append(1 + sum(raw.count(v) for v in ranked if v < value))
    return placement_points(places)


def simulate(count: int, seed: int = 2026) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    kinds = ("swiss", "single", "double", "round robin", "double round robin", "tables")
    for _ in range(count):
        kind = rng.choice(kinds)
        tally.events[kind] += 1
        if kind == "swiss":
            swiss_event(rng, tally)
        elif kind in ("single", "double"):
            elimination_event(rng, tally, kind == "double")
        elif kind.endswith("round robin"):
            round_robin_event(rng, tally, kind.startswith("double"))
        else:
            tables_event(rng, tally)
    return tally
