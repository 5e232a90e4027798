"""The ladder's Bradley-Terry fit (rules/ai/elo.py) against results worked out by hand."""

from __future__ import annotations

import math

import pytest

from rules.ai.elo import ELO, fit, standard_error


def test_a_75_percent_score_is_about_190_elo_apart() -> None:
    ratings = fit(["a", "b"], {("a", "b"): (300.0, 400)})
    # With the prior's half win each way: p = 300.5 / 401.
    p = 300.5 / 401
    gap = 400 * math.log10(p / (1 - p))
    assert ratings["a"][0] == pytest.approx(gap / 2, abs=0.01)
    assert ratings["b"][0] == pytest.approx(-gap / 2, abs=0.01)
    # Each centred rating carries half the gap's error: 1 / sqrt(n p (1 - p)) log-odds.
    err = ELO / math.sqrt(401 * p * (1 - p)) / 2
    assert ratings["a"][1] == pytest.approx(err, rel=1e-3)


def test_a_clean_sweep_stays_finite_and_the_order_follows_the_results() -> None:
    results = {("x", "y"): (10.0, 10), ("y", "z"): (7.0, 10), ("x", "z"): (10.0, 10)}
    ratings = fit(["x", "y", "z"], results)
    assert ratings["x"][0] > ratings["y"][0] > ratings["z"][0]
    assert all(math.isfinite(r) and math.isfinite(e) for r, e in ratings.values())
    assert sum(r for r, _ in ratings.values()) == pytest.approx(0, abs=1e-6)


def test_standard_error_of_a_score() -> None:
    assert standard_error(50, 100) == pytest.approx(math.sqrt(0.25 / 100), rel=0.01)
    assert standard_error(10, 10) > 0
