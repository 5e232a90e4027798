"""Single and double elimination brackets for duels, any size, byes resolved on their own.

A bracket is a fixed graph of matches whose two slots are fed by a seed, by the winner of
an earlier match or by its loser. Nothing is stored but the reported winners: who stands
in a slot is worked out from the graph each time, so correcting a result re-flows
everything after it. A slot whose feeder is empty is a *bye*, and a match with a bye on
one side is decided without a game::

    >>> b = Bracket.single(["ann", "bob", "cat"])
    >>> [m.id for m in b.ready()]          # ann (seed 1) has a bye to the final
    ['W1-2']
    >>> b.report("W1-2", "cat")
    >>> b.report("W2-1", "ann")
    >>> b.champion(), b.ranking()
    ('ann', [(1, 'ann'), (2, 'cat'), (3, 'bob')])

Seeding is the standard one: the field is padded to a power of two, seed 1 meets the last
slot, and seeds 1 and 2 can meet only in the final; the padding slots are byes for the top
seeds, so every bye falls in the first round of the winners' bracket (and, in double
elimination, in the first losers' rounds that those empty losers feed). In each match the
first slot holds the better seed or the winners'-bracket side, and moves first.

Double elimination drops each winners'-bracket loser into the losers' bracket, in reversed
order one round and with halves swapped the next, so that players who just met are kept
apart. That fixed order cannot see results, so each wave of drops (the losers of one
winners' round and the survivors they meet) is settled once all of it is known: the
order that pairs the fewest players who met in the winners' bracket, and among those the
one closest to the fixed order, so a wave that needs no change keeps it. The losers'
champion meets the winners' champion in the grand final; with ``reset`` on, a first
defeat for the winners' champion forces a deciding second final.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Literal

from competition.swiss_blocks import min_cost_perfect_matching

WINNERS: Final = "W"
LOSERS: Final = "L"
FINAL: Final = "GF"
THIRD: Final = "3RD"


class State(StrEnum):
    WAITING = "waiting"  # a player is still to be decided
    READY = "ready"  # both players known, result awaited
    DONE = "done"  # a game was won
    BYE = "bye"  # decided without a game
    VOID = "void"  # a bracket reset that was not needed


@dataclass(frozen=True)
class BracketMatch:
    """One match as it stands; ``first``/``second`` are None until known and for a bye."""

    id: str
    side: str
    round: int
    first: str | None
    second: str | None
    winner: str | None
    state: State


# Slot feeds: ("seed", index into the entrants), ("winner" | "loser", match id), or
# ("drop", match id): a loser dropping into the losers' bracket, by default of that match.
_Feed = tuple[Literal["seed", "winner", "loser", "drop"], str]


@dataclass(frozen=True)
class _Spec:
    id: str
    side: str
    round: int
    feeds: tuple[_Feed, _Feed]
    stage: float  # how far into the event losing here counts, for the final ranking


class _Pending:
    """Marks a slot whose player is not known yet (distinct from a bye, which is None)."""


PENDING: Final = _Pending()
_Occupant = str | None | _Pending


def seed_order(size: int) -> list[int]:
    """Standard bracket positions for seeds 1..size (a power of two), top to bottom.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [x for s in order for x in (s, mirror - s)]
    return order


class Bracket:
    """A single or double elimination bracket; entrants are given best seed first."""

    def __init__(self, entrants: Sequence[str], specs: list[_Spec], reset: bool) -> None:
        if len(set(entrants)) != len(entrants):
            raise ValueError("each entrant can enter a bracket only once")
        self.entrants = tuple(entrants)
        self._specs = {s.id: s for s in specs}
        self._reset = reset
        self._winners: dict[str, str] = {}
        # Each drop wave's losers' round -> (its matches, the matches feeding it).
        self._waves: dict[int, tuple[list[str], set[str]]] = {}
        for spec in specs:
            if spec.feeds[1][0] == "drop":
                wave, inputs = self._waves.setdefault(spec.round, ([], set()))
                wave.append(spec.id)
                inputs.update(ref for _, ref in spec.feeds)
        for wave, inputs in self._waves.values():
            drops = {self._specs[m].feeds[1][1] for m in wave}
            inputs.update(drops)
        self._assigned: dict[tuple[int, tuple[str | None, ...]], dict[str, str | None]] = {}
        # The bracket as it stands, worked out again only after a report: a tournament
        # asks for it at every step, and working it out walks every match.
        self._standing: dict[str, BracketMatch] | None = None

    @classmethod
    def single(cls, entrants: Sequence[str], third_place: bool = False) -> Bracket:
        """Single elimination; ``third_place`` adds a match between the losing semi-finalists."""
        specs, rounds = _winners_bracket(len(entrants))
        if third_place and rounds >= 2:
            semis = [s.id for s in specs if s.round == rounds - 1]
            feeds: tuple[_Feed, _Feed] = (("loser", semis[0]), ("loser", semis[1]))
            specs.append(_Spec(THIRD, THIRD, 1, feeds, rounds - 0.5))
        return cls(entrants, specs, reset=False)

    @classmethod
    def double(cls, entrants: Sequence[str], reset: bool = True) -> Bracket:
        """Double elimination: out after a second defeat, with an optional grand-final reset."""
        specs, rounds = _winners_bracket(len(entrants))
        # Losing in the winners' bracket eliminates nobody, so it has no ranking stage.
        specs = [replace(s, stage=-1) for s in specs]
        losers = _losers_bracket(rounds)
        specs += losers
        lb_final = losers[-1].id if losers else f"{WINNERS}{rounds}-1"
        lb_feed: _Feed = ("winner", lb_final) if losers else ("loser", lb_final)
        top = 2 * rounds
        specs.append(_Spec("GF1", FINAL, 1, (("winner", f"{WINNERS}{rounds}-1"), lb_feed), top))
        if reset:
            feeds: tuple[_Feed, _Feed] = (("winner", "GF1"), ("loser", "GF1"))
            specs.append(_Spec("GF2", FINAL, 2, feeds, top))
        return cls(entrants, specs, reset=reset)

    def matches(self) -> list[BracketMatch]:
        return list(self._views().values())

    def ready(self) -> list[BracketMatch]:
        """Matches that can be played now."""
        return [m for m in self.matches() if m.state is State.READY]

    def report(self, match_id: str, winner: str) -> None:
        """Record (or correct) who won a match.

        A correction is refused once a match fed by this one has a result, since that
        result might then involve a player who should not have been there.
        """
        match = self._views()[match_id]
        if match.state not in (State.READY, State.DONE):
            raise ValueError(f"{match_id} is not ready to be played")
        if winner not in (match.first, match.second):
            raise ValueError(f"{winner} is not playing in {match_id}")
        if match.state is State.DONE and self._fed_matches_reported(match_id):
            raise ValueError(f"{match_id} feeds a match that already has a result")
        self._winners[match_id] = winner
        self._standing = None

    def champion(self) -> str | None:
        """The winner once every needed match is decided, else None."""
        if not self.finished:
            return None
        views = self._views()
        if FINAL + "1" not in self._specs:
            final = max((s for s in self._specs.values() if s.side == WINNERS), key=_order)
            return views[final.id].winner
        deciding = views["GF2"] if self._reset else None
        if deciding is not None and deciding.state is State.DONE:
            return deciding.winner
        return views["GF1"].winner

    @property
    def finished(self) -> bool:
        return all(m.state in (State.DONE, State.BYE, State.VOID) for m in self.matches())

    def ranking(self) -> list[tuple[int, str]]:
        """Final places, best first; players knocked out at the same stage share a place."""
        if not self.finished:
            raise ValueError("the bracket is not finished")
        champion = self.champion()
        stage: dict[str, float] = {}
        views = self._views()
        for spec in self._specs.values():
            match = views[spec.id]
            if match.state is not State.DONE or spec.stage < 0:
                continue
            for player in (match.first, match.second):
                assert player is not None
                key = spec.stage if player != match.winner else spec.stage + 0.25
                if player != champion and (player != match.winner or spec.side == THIRD):
                    stage[player] = max(stage.get(player, key), key)
        keyed = [(float("inf") if p == champion else stage.get(p, 0.0), p) for p in self.entrants]
        places: list[tuple[int, str]] = []
        for key, player in sorted(keyed, key=lambda kp: -kp[0]):
            place = 1 + sum(other > key for other, _ in keyed)
            places.append((place, player))
        return places

    def _fed_matches_reported(self, match_id: str) -> bool:
        return any(
            match_id in self._feeders(spec) and spec.id in self._winners
            for spec in self._specs.values()
        )

    def _feeders(self, spec: _Spec) -> set[str]:
        """The matches whose results decide who plays ``spec``: a whole wave for a drop."""
        if spec.feeds[1][0] == "drop":
            return self._waves[spec.round][1]
        return {ref for kind, ref in spec.feeds if kind != "seed"}

    def _views(self) -> dict[str, BracketMatch]:
        """Every match as it stands, worked out in build order (feeders come first)."""
        if self._standing is None:
            views: dict[str, BracketMatch] = {}
            # each wave's drops, worked out at its first match for the wave's others
            # (once per match, a big bracket's waves took a square of their size)
            drops: dict[int, dict[str, str | None] | _Pending] = {}
            for spec in self._specs.values():
                views[spec.id] = self._view(spec, views, drops)
            self._standing = views
        return self._standing

    def _view(
        self,
        spec: _Spec,
        views: dict[str, BracketMatch],
        drops: dict[int, dict[str, str | None] | _Pending],
    ) -> BracketMatch:
        first = self._occupant(spec.feeds[0], views)
        if spec.feeds[1][0] == "drop":
            if spec.round not in drops:
                drops[spec.round] = self._dropped(spec.round, views)
            wave = drops[spec.round]
            second: _Occupant = wave if isinstance(wave, _Pending) else wave[spec.id]
        else:
            second = self._occupant(spec.feeds[1], views)
        known = [p if isinstance(p, str) else None for p in (first, second)]
        if spec.id == "GF2":
            gf1 = views["GF1"]
            if gf1.state is State.DONE and gf1.winner == gf1.first:
                return BracketMatch(
                    spec.id, spec.side, spec.round, known[0], known[1], None, State.VOID
                )
        if PENDING in (first, second):
            state, winner = State.WAITING, None
        elif first is None or second is None:
            state, winner = State.BYE, known[0] or known[1]
        elif spec.id in self._winners:
            state, winner = State.DONE, self._winners[spec.id]
        else:
            state, winner = State.READY, None
        return BracketMatch(spec.id, spec.side, spec.round, known[0], known[1], winner, state)

    def _dropped(
        self, round_no: int, views: dict[str, BracketMatch]
    ) -> dict[str, str | None] | _Pending:
        """Who drops into each match of wave ``round_no``, once the whole wave is known."""
        wave, inputs = self._waves[round_no]
        if any(views[m].state in (State.WAITING, State.READY) for m in inputs):
            return PENDING
        survivors = [self._occupant(self._specs[m].feeds[0], views) for m in wave]
        drops = [self._occupant(("loser", self._specs[m].feeds[1][1]), views) for m in wave]
        known = tuple(p if isinstance(p, str) else None for p in survivors + drops)
        key = (round_no, known)
        if key not in self._assigned:
            met = {
                frozenset((m.first, m.second))
                for m in views.values()
                if m.side == WINNERS and m.state is State.DONE
            }
            half = len(wave)
            order = _least_rematches(list(known[:half]), list(known[half:]), met)
            self._assigned[key] = {m: known[half + k] for m, k in zip(wave, order, strict=True)}
        return self._assigned[key]

    def _occupant(self, feed: _Feed, views: dict[str, BracketMatch]) -> _Occupant:
        kind, ref = feed
        if kind == "seed":
            index = int(ref)
            return self.entrants[index] if index < len(self.entrants) else None
        match = views[ref]
        if match.state in (State.WAITING, State.READY, State.VOID):
            return PENDING
        if kind == "winner":
            return match.winner
        assert kind == "loser", "drops are worked out per wave"
        if match.state is State.BYE:
            return None
        return match.second if match.winner == match.first else match.first


def _order(spec: _Spec) -> tuple[int, str]:
    return spec.round, spec.id


def _winners_bracket(entrants: int) -> tuple[list[_Spec], int]:
    """The winners' bracket (the whole of single elimination) and its number of rounds."""
    if entrants < 2:
        raise ValueError("a bracket needs at least two entrants")
    rounds = (entrants - 1).bit_length()
    order = seed_order(2**rounds)
    specs: list[_Spec] = []
    for i in range(2 ** (rounds - 1)):
        feeds: tuple[_Feed, _Feed] = (
            ("seed", str(order[2 * i] - 1)),
            ("seed", str(order[2 * i + 1] - 1)),
        )
        specs.append(_Spec(f"{WINNERS}1-{i + 1}", WINNERS, 1, feeds, 1))
    for r in range(2, rounds + 1):
        for i in range(2 ** (rounds - r)):
            prev = f"{WINNERS}{r - 1}"
            feeds = (("winner", f"{prev}-{2 * i + 1}"), ("winner", f"{prev}-{2 * i + 2}"))
            specs.append(_Spec(f"{WINNERS}{r}-{i + 1}", WINNERS, r, feeds, r))
    return specs, rounds


def _losers_bracket(rounds: int) -> list[_Spec]:
    """The losers' bracket behind a winners' bracket of ``rounds`` rounds.

    Odd losers' rounds pair survivors with each other (the first pairs the first-round
    losers); even ones bring in the losers of the next winners' round.
    """
    specs: list[_Spec] = []
    if rounds < 2:
        return specs
    size = 2**rounds
    for i in range(size // 4):
        feeds: tuple[_Feed, _Feed] = (
            ("loser", f"{WINNERS}1-{2 * i + 1}"),
            ("loser", f"{WINNERS}1-{2 * i + 2}"),
        )
        specs.append(_Spec(f"{LOSERS}1-{i + 1}", LOSERS, 1, feeds, 1))
    for j in range(1, rounds):
        count = size // 2 ** (j + 1)
        drop = _drop_order(count, j)
        lr = 2 * j
        for i in range(count):
            feeds = (
                ("winner", f"{LOSERS}{lr - 1}-{i + 1}"),
                ("drop", f"{WINNERS}{j + 1}-{drop[i] + 1}"),
            )
            specs.append(_Spec(f"{LOSERS}{lr}-{i + 1}", LOSERS, lr, feeds, lr))
        if j < rounds - 1:
            for i in range(count // 2):
                feeds = (
                    ("winner", f"{LOSERS}{lr}-{2 * i + 1}"),
                    ("winner", f"{LOSERS}{lr}-{2 * i + 2}"),
                )
                specs.append(_Spec(f"{LOSERS}{lr + 1}-{i + 1}", LOSERS, lr + 1, feeds, lr + 1))
    return specs


def _drop_order(count: int, wave: int) -> list[int]:
    """Which winners'-round match drops into each losers' slot: reversed, then half-swapped."""
    straight = list(range(count))
    if wave % 2:
        return straight[::-1]
    half = count // 2
    return straight[half:] + straight[:half]


def _least_rematches(
    survivors: list[str | None], drops: list[str | None], met: set[frozenset[str | None]]
) -> list[int]:
    """Which drop meets each survivor: fewest winners'-bracket rematches, then the fewest
    changes from the fixed order (drop ``i`` to survivor ``i``)."""

    def clash(i: int, k: int) -> bool:
        return frozenset((survivors[i], drops[k])) in met

    count = len(survivors)
    if not any(clash(i, i) for i in range(count)):
        return list(range(count))
    costs = {
        (i, count + k): (count + 1) * clash(i, k) + (i != k)
        for i in range(count)
        for k in range(count)
    }
    order = [0] * count
    for a, b in min_cost_perfect_matching(costs):
        i, k = min(a, b), max(a, b) - count
        order[i] = k
    return order
