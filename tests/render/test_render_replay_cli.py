"""Animated replays, and the ``crosshairs render`` and ``replay`` commands."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageSequence

from bot.cli.main import main
from render.replay import FINAL_MS, FRAME_MS, replay_gif
from render.samples import careful_game
from rules import events, serialize

GOLDEN = Path(__file__).parent / "golden"


def test_replay_has_a_frame_per_turn_and_holds_the_last() -> None:
    game = serialize.loads((GOLDEN / "duel.json").read_text())
    turns = sum(1 for p in game.history if any(isinstance(e, events.TurnPassed) for e in p.events))
    data = replay_gif(game, size=320)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    # The start, one frame per finished turn and the position now (mid-turn here).
    assert len(durations) == turns + 2
    assert durations[:-1] == [FRAME_MS] * (turns + 1)
    assert durations[-1] == FINAL_MS
    assert replay_gif(game, size=320) == data


def test_replay_per_step() -> None:
    game = careful_game("duel", seed=3, steps=12)
    gif = Image.open(io.BytesIO(replay_gif(game, size=300, per="step")))
    assert sum(1 for _ in ImageSequence.Iterator(gif)) == 13


def test_cli_render_and_replay(tmp_path: Path) -> None:
    src = GOLDEN / "3v3.json"
    png = tmp_path / "board.png"
    assert main(["render", str(src), "-o", str(png), "--size", "500", "--lines"]) == 0
    img = Image.open(png)
    assert img.format == "PNG" and img.width == 500
    light = tmp_path / "light.png"
    assert main(["render", str(src), "-o", str(light), "--size", "500", "--theme", "light"]) == 0
    assert light.read_bytes() != png.read_bytes()
    gif = tmp_path / "game.gif"
    assert main(["replay", str(src), "-o", str(gif), "--size", "300"]) == 0
    assert Image.open(gif).format == "GIF"


def test_cli_reports_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
