"""Generated input through the ``crosshairs`` entry function: whatever arrives, the
command either does its work (exit 0) or refuses with one line on stderr (exit 2).
A small budget of bench/fuzz.py, which feeds 100,000 such inputs."""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.main import main
from rules import serialize
from rules.modes import Settings
from rules.players import new_game

BUDGET = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game() -> str:
    game = new_game(Settings(), 7)
    rng = random.Random(7)
    for _ in range(12):
        game.play(rng.choice(game.legal_steps()))
    return serialize.dumps(game, indent=None)


GAME = _game()
POSITION = "duel/2026 t9 aces | c3 c4 f6 g6 | >d4NE3 e5E0! +0 | h8W2 k7SW3 +1 h2"
ODD = st.sampled_from(["ı", "İ", "K", "²", "٣", "\x00", "9" * 5000, "|", ">", "!", " ", "k1"])


def outcome(argv: list[str], stdin: str = "") -> int:
    out, err = io.StringIO(), io.StringIO()
    real = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:  # argparse refuses a token that looks like an option
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = real
    if code == 2:
        message = err.getvalue()
        assert message.count("\n") >= 1 and "Traceback" not in message, message
        assert out.getvalue() == ""
    else:
        assert code == 0, err.getvalue()
    return code


def spliced(base: str) -> st.SearchStrategy[str]:
    """``base`` with pieces cut out and odd characters or text put in."""
    return st.tuples(
        st.integers(0, len(base)), st.integers(0, 8), st.one_of(ODD, st.text(max_size=8))
    ).map(lambda t: base[: t[0]] + t[2] + base[t[0] + t[1] :])


@BUDGET
@given(st.one_of(st.text(max_size=30), spliced("e6SS>P"), spliced("+a3NE"), spliced("*d4")))
def test_any_token_is_played_or_refused(token: str) -> None:
    outcome(["play", "-", token], GAME)


@BUDGET
@given(st.one_of(spliced(POSITION), st.text(max_size=80)))
def test_any_position_text_starts_a_game_or_is_refused(text: str) -> None:
    outcome(["new", "--position", text])


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**4000, max_value=10**4001)
    | st.floats()
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


@BUDGET
@given(
    st.sampled_from(
        [
            ("settings", "mode"),
            ("settings", "planes"),
            ("settings", "variants"),
            ("settings", "handicaps"),
            ("settings", "turn_limit"),
            ("start", "clouds"),
            ("start", "position"),
            ("steps", 0),
            ("version",),
            ("settings",),
            ("steps",),
        ]
    ),
    json_values,
)
def test_a_game_file_with_any_value_anywhere_loads_or_is_refused(
    where: tuple[Any, ...], value: object
) -> None:
    data = json.loads(GAME)
    holder = data
    for key in where[:-1]:
        holder = holder[key]
    holder[where[-1]] = value
    for command in ("show", "legal"):
        outcome([command, "-"], json.dumps(data))


@BUDGET
@given(spliced(GAME))
def test_a_damaged_game_file_loads_or_is_refused(text: str) -> None:
    outcome(["show", "-"], text)
