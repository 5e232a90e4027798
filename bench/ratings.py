"""The shown rating under simulation: ``python bench/ratings.py [--players N] [--games G]``.

1,000 players (by default) get a known skill; random pairs play duels decided by
performance = skill + noise, exactly the model openskill assumes (β = 25/6). The games
are rated with :mod:`competition.ratings`, and the script prints, for the shown number
players see now (``display``: 1500 + 25·(μ − 25)) and for the old one
(1000 + 25·(μ − 3σ)):

* how well each ranks the players by their true skill (Spearman's rank correlation);
* what an agreed draw between equals does to each (two friends drawing 20 times);
* what early resignations do: a friend who resigns before flying, 20 times, is aborted
  under the abort rule (nothing is rated); the old rules rated each as a win;
* what merely playing more does to an average player's number.

docs/ratings.md quotes its output. Deterministic for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence

from competition.ratings import (
    DISPLAY_SCALE,
    MODEL,
    Rating,
    new_rating,
    rate_game,
)
from rules.game import Game
from rules.modes import Settings


def old_display(rating: Rating) -> int:
    """The number shown before: the ordinal μ − 3σ, 1000 for a newcomer."""
    return 1000 + round(DISPLAY_SCALE * (rating.mu - 3 * rating.sigma))


def ranks(values: Sequence[float]) -> list[float]:
    """Average ranks (ties share the mean of their places), as Spearman's rho needs."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    var = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return float(cov / var)


def league(players: int, games: int, rng: random.Random) -> tuple[list[float], list[Rating]]:
    """Random duels until every player has about ``games`` games; returns true skills
    and ratings."""
    skill = [rng.gauss(MODEL.mu, MODEL.sigma / 2) for _ in range(players)]
    rating = [new_rating() for _ in range(players)]
    for _ in range(games):
        order = list(range(players))
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            first = skill[a] + rng.gauss(0, MODEL.beta) > skill[b] + rng.gauss(0, MODEL.beta)
            after = rate_game(
                "duel", [[a], [b]], [0, 1] if first else [1, 0], {a: rating[a], b: rating[b]}
            )
            rating[a], rating[b] = after[a], after[b]
    return skill, rating


def repeated(result: Sequence[int], times: int, start: Rating) -> tuple[Rating, Rating]:
    """Two players with rating ``start`` play ``times`` games ending in ``result``."""
    a = b = start
    for _ in range(times):
        after = rate_game("duel", [["a"], ["b"]], list(result), {"a": a, "b": b})
        a, b = after["a"], after["b"]
    return a, b


def early_resignation() -> Game:
    """A duel in which the first player places a plane and the second resigns."""
    game = Game(Settings())
    game.push(game.legal_steps()[0])
    game.concede(1)
    return game


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=40, help="games per player")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    print(f"League: {args.players} players with known skills, {args.games} random duels each")
    for after in (5, args.games):
        skill, rating = league(args.players, after, random.Random(args.seed))
        new = [float(r.display) for r in rating]
        old = [float(old_display(r)) for r in rating]
        print(
            f"  after {after:>2} games each: Spearman(shown, skill) = {spearman(new, skill):.3f}"
            f" (old number {spearman(old, skill):.3f}); mean shown {statistics.fmean(new):.0f}"
            f" (old {statistics.fmean(old):.0f})"
        )
    settled = [r for r in rating if not r.provisional]
    print(f"  settled (not provisional) after {args.games}: {len(settled)} of {len(rating)}")
    average = [r for s, r in zip(skill, rating, strict=True) if abs(s - MODEL.mu) < 0.5]
    print(
        f"  average-skill players ({len(average)}): shown "
        f"{statistics.fmean(r.display for r in average):.0f}, old number "
        f"{statistics.fmean(old_display(r) for r in average):.0f}"
    )

    print("Two newcomers agree 20 draws:")
    a, _ = repeated([0, 0], 20, new_rating())
    print(f"  shown {new_rating().display} -> {a.display}; old number 1000 -> {old_display(a)}")
    established = Rating(MODEL.mu + 4, 2.5, 60)
    a, _ = repeated([0, 0], 20, established)
    print(
        f"  two equals at {established.display}: shown -> {a.display}; old number "
        f"{old_display(established)} -> {old_display(a)}"
    )

    print("A friend resigns 20 times before flying a turn (real games, rules.game):")
    farmer = friend = new_rating()
    for _ in range(20):
        if not early_resignation().ended_early:  # the abort rule's test, as the bot uses it
            after = rate_game("duel", [["a"], ["b"]], [0, 1], {"a": farmer, "b": friend})
            farmer, friend = after["a"], after["b"]
    old_farmer, old_friend = repeated([0, 1], 20, new_rating())
    print(
        f"  now: farmer {new_rating().display} -> {farmer.display}, friend -> "
        f"{friend.display} (every game aborted, {farmer.games} rated); old rules rated them: "
        f"farmer 1000 -> {old_display(old_farmer)}, friend 1000 -> {old_display(old_friend)}"
    )

    print("An average player who keeps playing an equal opponent, winning half:")
    player = new_rating()
    marks = []
    for game in range(1, 101):
        result = [0, 1] if game % 2 else [1, 0]
        player = rate_game("duel", [["p"], ["q"]], result, {"p": player, "q": player})["p"]
        if game in (1, 10, 50, 100):
            marks.append(f"{game} games: shown {player.display}, old {old_display(player)}")
    print("  " + "; ".join(marks))


if __name__ == "__main__":
    main()
