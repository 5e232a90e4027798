"""Elo ratings from pairwise results (the strength ladder of ``bench/ai.py``): a
maximum-likelihood Bradley-Terry fit.

P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)); a draw counts half a win to each.
One virtual draw per pair is added as a prior (as BayesElo does), so a strength that
won every game still gets a finite rating. Ratings are centred on a mean of 0; the
error bars are one standard error from the inverse of the observed Fisher information
under that centring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

ELO = 400 / math.log(10)  # Elo points per unit of natural log-odds
PRIOR_DRAWS = 1.0


def fit(
    names: Sequence[str], points: dict[tuple[str, str], tuple[float, int]]
) -> dict[str, tuple[float, float]]:
    """``points[(a, b)] = (points a scored against b, games)``, one entry per pair.
    Returns name -> (Elo, standard error)."""
    n = len(names)
    index = {name: k for k, name in enumerate(names)}
    wins = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (a, b), (score, played) in points.items():
        i, j = index[a], index[b]
        wins[i][j] += score + PRIOR_DRAWS / 2
        wins[j][i] += played - score + PRIOR_DRAWS / 2
        games[i][j] += played + PRIOR_DRAWS
        games[j][i] += played + PRIOR_DRAWS
    strength = [1.0] * n
    for _ in range(2000):  # Zermelo's iteration; converges for a connected schedule
        new = []
        for i in range(n):
            total = sum(wins[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(total / denom if denom else strength[i])
        centre = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / centre for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-12
        strength = new
        if done:
            break
    logs = [math.log(s) for s in strength]
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(logs[j] - logs[i]))
                w = games[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
    cov = _centred_covariance(info)
    return {
        name: (logs[k] * ELO, math.sqrt(max(cov[k][k], 0.0)) * ELO) for k, name in enumerate(names)
    }


def _centred_covariance(info: list[list[float]]) -> list[list[float]]:
    """Covariance of the centred ratings: anchor the last rating at 0, invert the
    reduced information matrix, then move the anchor to the mean."""
    n = len(info)
    reduced = _inverse([row[: n - 1] for row in info[: n - 1]])
    full = [[0.0] * n for _ in range(n)]
    for i in range(n - 1):
        for j in range(n - 1):
            full[i][j] = reduced[i][j]
    centring = [[(1.0 if i == j else 0.0) - 1 / n for j in range(n)] for i in range(n)]
    return _mul(_mul(centring, full), centring)


def _mul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [
        [sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def _inverse(m: list[list[float]]) -> list[list[float]]:
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def standard_error(points: float, games: int) -> float:
    """One standard error of a score fraction ``points / games`` (binomial), with the
    fraction smoothed by Laplace's rule so a clean sweep does not claim an error of 0."""
    p = (points + 1) / (games + 2)
    return math.sqrt(p * (1 - p) / games)
