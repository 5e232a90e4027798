"""Tournament pairing speed and the full simulation, as issue #20 asks.

Prints, for Swiss fields of 64, 256 and 1,024 players over 5 rounds with random results
(win, draw or loss equally likely), the median time to pair each round over several runs,
and whether that round was paired in blocks or needed the whole-field exact matching.
Then runs the full simulation (3,000 seeded random events, every invariant checked, the
brute force for fields of up to 10). Run: .venv/bin/python bench/tournament.py [events]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tournaments.simulation import simulate  # noqa: E402

from competition.model import Entrant, PairingResult  # noqa: E402
from competition.swiss import RoundCosts, block_pairing, pair_duels  # noqa: E402

FIELDS = (64, 256, 1024)
ROUNDS = 5
RUNS = {64: 5, 256: 5, 1024: 3}
EVENTS = 3000


def swiss_event(n: int, seed: int) -> tuple[list[Entrant], list[list[PairingResult]]]:
    """A random field and the history before each of its rounds."""
    rng = random.Random(seed)
    players = [Entrant(f"p{i}", float(rng.randrange(1000, 2400)), i) for i in range(1, n + 1)]
    history: list[PairingResult] = []
    before: list[list[PairingResult]] = []
    for _ in range(ROUNDS):
        before.append(list(history))
        for p in pair_duels(players, history):
            if p.is_bye:
                history.append(PairingResult.bye(p.seats[0]))
            else:
                first, second = p.seats
                history.append(PairingResult.duel(first, second, rng.choice((1.0, 0.5, 0.0))))
    return players, before


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else EVENTS
    print(f"Swiss pairing, median of several runs, {ROUNDS} rounds of random results")
    for n in FIELDS:
        players, histories = swiss_event(n, seed=n)
        for number, history in enumerate(histories, start=1):
            times = []
            for _ in range(RUNS[n]):
                start = time.perf_counter()
                pair_duels(players, history)
                times.append(time.perf_counter() - start)
            blocks = n > 16 and block_pairing(RoundCosts.of(players, history)) is not None
            how = "blocks" if blocks else "whole-field exact"
            print(f"  {n:5} players, round {number}: {statistics.median(times):7.3f} s  ({how})")
    start = time.perf_counter()
    tally = simulate(events)
    elapsed = time.perf_counter() - start
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(tally.events.items()))
    print(f"Simulation: {events} events ({kinds}) in {elapsed:.0f} s, invariants held")
    print(f"  {tally.rounds} rounds, {tally.brute_checked} checked against the brute force")


if __name__ == "__main__":
    main()
