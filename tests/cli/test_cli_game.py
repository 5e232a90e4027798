"""The ``crosshairs`` game commands, driven as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.main import main
from rules import position, serialize
from rules.modes import MODES


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def new_game(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> Path:
    code, out, _ = run(capsys, "new", *args)
    assert code == 0
    path = tmp_path / "game.json"
    path.write_text(out)
    return path


def test_new_prints_a_game_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "--seed", "4", "--rules", "classic", "--planes", "6")
    assert code == 0
    data = json.loads(out)
    assert data["settings"]["ruleset"] == "classic" and data["settings"]["planes"] == 6
    assert len(data["start"]["clouds"]) == 16
    assert run(capsys, "new", "--seed", "4", "--rules", "classic", "--planes", "6")[1] == out


@pytest.mark.parametrize("mode", sorted(MODES))
def test_new_every_mode_with_variants_and_handicaps(
    capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    code, out, err = run(
        capsys,
        "new",
        "--mode",
        mode,
        "--variant",
        "turbulence,concealed-fire,aces,no-level",
        "--handicap",
        "2=3",
        "--seed",
        "1",
    )
    assert code == 0, err
    game = serialize.loads(out)
    assert game.mode.key == mode
    assert game.seat(1).handicap == 3
    assert game.settings.variants == {"turbulence", "concealed-fire", "aces", "no-level"}


def test_new_with_clouds_none_manual_preset_and_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert json.loads(run(capsys, "new", "--clouds", "none")[1])["start"]["clouds"] == []
    assert json.loads(run(capsys, "new", "--clouds", "manual")[1])["status"]["phase"] == "setup"
    assert len(json.loads(run(capsys, "new", "--clouds", "lanes")[1])["start"]["clouds"]) == 16
    text = "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | h8W2 k7SW3 +1"
    data = json.loads(run(capsys, "new", "--position", text)[1])
    assert data["start"]["position"] == text


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--mode", "chess"], "unknown mode"),
        (["--planes", "9"], "3 to 6"),
        (["--variant", "fog"], "unknown variant"),
        (["--handicap", "7=1"], "no seat"),
        (["--handicap", "2"], "SEAT=K"),
        (["--clouds", "storm"], "unknown cloud preset"),
        (["--position", "duel/2026 t9"], "header"),
    ],
)
def test_new_refuses_bad_options_with_a_reason(
    capsys: pytest.CaptureFixture[str], args: list[str], why: str
) -> None:
    code, out, err = run(capsys, "new", *args)
    assert code == 2 and out == "" and why in err


def test_legal_prints_single_step_tokens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = new_game(
        capsys, tmp_path, "--position", "duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0"
    )
    code, out, _ = run(capsys, "legal", str(path))
    assert code == 0
    # d4 is blocked by d5 but can power dive; d5 faces d4 at height 0 and must crash.
    assert set(out.split()) == {"d4P", "d4P<", "d4P>", "d5X"}


def test_play_applies_whole_plane_and_single_step_tokens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = new_game(
        capsys, tmp_path, "--position", "duel/2026 t9 - | - | >e6E5 a6NW0 +0 | k7SW0 k10E0 +0"
    )
    before = path.read_text()
    code, out, _ = run(capsys, "play", str(path), "e6SS>P", "a6C")
    assert code == 0
    game = serialize.loads(out)
    assert [p.token for p in game.history] == ["e6S", "e7S>", "e8P", "a6C"]
    assert path.read_text() == before  # input files are never modified
    single = run(capsys, "play", str(path), "e6S", "e7S>", "e8P a6C")[1]
    assert serialize.loads(single).state_key() == game.state_key()


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("e6Q", "'e6Q'"),
        ("e6C", "a plane at height 6"),
        ("zz", "not a cell"),
        ("+a1NE", "no plane in reserve"),
    ],
)
def test_play_refuses_a_bad_token_exit_2_nothing_on_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, token: str, why: str
) -> None:
    path = new_game(
        capsys, tmp_path, "--position", "duel/2026 t9 - | - | >e6E6 a6NW0 +0 | k7SW0 k10E0 +0"
    )
    code, out, err = run(capsys, "play", str(path), "a6C", token)
    assert code == 2
    assert out == ""
    assert why in err


def test_show_prints_a_board_and_the_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | h8W2 k7SW3 +1"
    path = new_game(capsys, tmp_path, "--position", text)
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0 and "1↗3" in out and "P1 to move" in out
    assert run(capsys, "show", "--position", str(path))[1].strip() == text
    moved = tmp_path / "moved.json"
    moved.write_text(run(capsys, "play", str(path), "d4P")[1])
    code, _, err = run(capsys, "show", "--position", str(moved))
    assert code == 2 and "start of a player-turn" in err


def test_show_words_tells_the_position_and_the_record_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "duel/2026 t9 - | - | >a1SW0 a4NW4 f3E0 +0 | f7W2 k10W2 +0"
    path = new_game(capsys, tmp_path, "--position", text)
    code, out, _ = run(capsys, "show", "--words", str(path))
    assert code == 0 and "1↗" not in out  # words instead of the text board
    assert "Turn 9: P1 to fly, every plane flies: 3 still to fly." in out
    assert "- Plane at f3, height 0, facing east; aims at P2's plane at f7;" in out
    played = tmp_path / "played.json"
    played.write_text(run(capsys, "play", str(path), "a1X", "a4SS>")[1])
    code, out, _ = run(capsys, "show", "--words", "--moves", str(played))
    assert code == 0 and "P1 wins (last standing)." in out
    assert "Turn 9, P1 (a1X a4SS>*f7):" in out
    assert "- P1's plane at a1 cannot fly on and crashes (a1X)." in out
    code, _, err = run(capsys, "show", "--words", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json" in err


def test_show_reads_standard_input() -> None:
    game = position.parse("duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli.main", "show", "-"],
        input=serialize.dumps(game),
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Player-turn 9" in done.stdout


def test_a_missing_or_broken_file_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "legal", str(tmp_path / "nope.json"))
    assert code == 2 and "No such file" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    code, _, err = run(capsys, "legal", str(broken))
    assert code == 2 and "not JSON" in err


def test_selfplay_ends_every_game_and_prints_totals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "--games", "20", "--seed", "1")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 21
    assert lines[-1].startswith("total: 20 games; P1 ")
    wins = sum(
        int(w)
        for w in [
            lines[-1].split("P1 ")[1].split(",")[0],
            lines[-1].split("P2 ")[1].split(",")[0],
            lines[-1].split("drawn ")[1].split(";")[0],
        ]
    )
    assert wins == 20


@pytest.mark.parametrize("mode", sorted(MODES))
def test_selfplay_every_mode(capsys: pytest.CaptureFixture[str], mode: str) -> None:
    code, out, _ = run(capsys, "selfplay", "--games", "5", "--seed", "1", "--mode", mode)
    assert code == 0
    assert sum(line.startswith("game ") for line in out.splitlines()) == 5
