"""Hostile and damaged input to the ``crosshairs`` command: every one is a one-line error
on stderr and exit status 2, never a traceback (issue 15, item 4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main

POSITION = "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | h8W2 k7SW3 +1"
HUGE = "9" * 5000  # past Python's 4,300-digit limit of int() on text


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one-line error of a refused command (exit 2, nothing on stdout)."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.startswith(f"crosshairs {args[0]}: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@pytest.fixture
def game_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    code, out, _ = run(capsys, "new", "--seed", "3")
    assert code == 0
    path = tmp_path / "game.json"
    path.write_text(out)
    return path


def edited(game_file: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads(game_file.read_text())
    change(data)
    path = game_file.with_name("edited.json")
    path.write_text(json.dumps(data))
    return path


def test_a_file_that_is_not_utf8_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"\xff")
    for command in ("show", "legal"):
        assert "not UTF-8" in refused(capsys, command, str(path))
    assert "not UTF-8" in refused(capsys, "render", str(path), "-o", str(tmp_path / "b.png"))


@pytest.mark.parametrize("token", ["ı3C", "İ3C", "+ıNE", "*İ", "~ı3", "c٣C", "K3C", "k1C"])
def test_tokens_with_letters_or_digits_outside_ascii_are_refused(
    capsys: pytest.CaptureFixture[str], game_file: Path, token: str
) -> None:
    err = refused(capsys, "play", str(game_file), token)
    assert repr(token) in err


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d["settings"].update(mode=5), "settings.mode must be text"),
        (lambda d: d["settings"].update(variants=[[1]]), "settings.variants[0] must be text"),
        (lambda d: d["settings"].update(planes=4.0), "settings.planes must be a whole number"),
        (lambda d: d["settings"].update(planes=True), "settings.planes must be a whole number"),
        (lambda d: d["settings"].update(handicaps={}), "settings.handicaps must be a list"),
        (lambda d: d["settings"].update(cloud_groups="yes"), "must be true or false"),
        (lambda d: d.update(start={"clouds": 5}), "start.clouds must be a list"),
        (lambda d: d.update(start={"position": 5}), "start.position must be text"),
        (lambda d: d.update(start={"clouds": ["k1"]}), "'k1' is not a cell"),
        (lambda d: d.update(steps=[7]), "steps[0] must be text"),
        (lambda d: d.update(steps=["resign:²"]), "expected resign:<seat>"),
        (lambda d: d.update(steps=["resign:" + "1" * 40]), "expected resign:<seat>"),
        (lambda d: d.update(steps=["a" * 65]), "longer than 64"),
        (lambda d: d.update(settings=[]), "settings must be an object"),
    ],
)
def test_game_json_with_wrong_types_or_values_is_refused(
    capsys: pytest.CaptureFixture[str],
    game_file: Path,
    change: Callable[[dict[str, Any]], None],
    why: str,
) -> None:
    assert why in refused(capsys, "show", str(edited(game_file, change)))


def test_a_5000_digit_integer_in_game_json_is_refused(
    capsys: pytest.CaptureFixture[str], game_file: Path
) -> None:
    text = game_file.read_text().replace('"planes": null', f'"planes": {HUGE}')
    assert HUGE in text
    game_file.write_text(text)
    assert "not a readable game" in refused(capsys, "show", str(game_file))


def test_a_large_integer_within_pythons_limit_is_refused_by_range(
    capsys: pytest.CaptureFixture[str], game_file: Path
) -> None:
    path = edited(game_file, lambda d: d["settings"].update(turn_limit=10**4000))
    assert "settings.turn_limit must be 1 to" in refused(capsys, "show", str(path))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (POSITION.replace("t9", "t" + HUGE), "at most 1000 characters"),
        (POSITION.replace("t9", "t" + "9" * 900), "player-turn is written"),
        (POSITION.replace("+0", "+" + "9" * 900), "cannot read"),
        (POSITION.replace("+0", "+999"), "+999 is more than 6"),
        (POSITION.replace("t9", "t²"), "player-turn is written"),
        (POSITION.replace("+0", "+²"), "cannot read"),
        (POSITION.replace("d4NE3", "ı4NE3"), "cannot read"),
        (POSITION.replace("c3 c4", "İ3 c4"), "is not a cell"),
    ],
)
def test_position_text_with_huge_numbers_or_foreign_letters_is_refused(
    capsys: pytest.CaptureFixture[str], text: str, why: str
) -> None:
    assert why in refused(capsys, "new", "--position", text)


def test_a_huge_integer_in_a_games_start_position_is_refused(
    capsys: pytest.CaptureFixture[str], game_file: Path
) -> None:
    path = edited(game_file, lambda d: d.update(start={"position": POSITION.replace("+0", "+99")}))
    assert "+99 is more than 6" in refused(capsys, "show", str(path))


def test_a_file_of_100000_open_brackets_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    assert "nested too deeply" in refused(capsys, "show", str(path))


@pytest.mark.parametrize("handicap", ["2=²", f"2={HUGE}", "²=1", "İ=1"])
def test_a_handicap_option_with_odd_digits_is_refused(
    capsys: pytest.CaptureFixture[str], handicap: str
) -> None:
    assert "--handicap" in refused(capsys, "new", "--handicap", handicap)
