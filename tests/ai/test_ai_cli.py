"""``crosshairs selfplay`` with computer players."""

from __future__ import annotations

import pytest

from bot.cli.main import main


def test_selfplay_hard_against_random(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["selfplay", "--white", "hard", "--black", "random", "--games", "2", "--time-budget", "0.2"]
    )
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith("game 1: ")
    assert out[1].startswith("game 2: ")
    assert out[2] == "total: 2 games; P1 2, P2 0, drawn 0; 0 hit the turn limit"


def test_selfplay_players_for_more_seats(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--mode", "ffa3", "--players", "easy,random,random", "--time-budget", "0.05"]
    code = main(["selfplay", "--games", "1", *args])
    assert code == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("total: 1 games; P1 ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "ffa3", "--white", "hard"], "use --players"),
        (["--players", "hard"], "this mode has 2 seats"),
        (["--players", "hard,wizard"], "'wizard' is not one of"),
    ],
)
def test_selfplay_player_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", "--games", "1", *args]) == 2
    assert message in capsys.readouterr().err
