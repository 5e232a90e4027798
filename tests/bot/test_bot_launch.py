"""Start-up: configuration, .env, and the terminal game through the launcher
(`bash scripts/run --terminal`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from launcher.main import read_env_file

ROOT = Path(__file__).resolve().parents[2]


def test_config_from_the_environment(tmp_path: Path) -> None:
    config = Config.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": str(tmp_path / "x.db"),
            "DEV_GUILD_ID": "42",
            "LOG_LEVEL": "debug",
            "COMPUTER_PACE": "0.5",
            "TURN_CLOCK_CHECK_SECONDS": "2",
        }
    )
    assert config.clock_interval == 2.0 and Config.from_env({}).clock_interval == 20.0
    assert config.token == "abc" and config.dev_guild_id == 42
    assert config.database_path == tmp_path / "x.db"
    assert config.log_level == "DEBUG" and config.computer_pace == 0.5
    assert Config.from_env({}).token is None


@pytest.mark.parametrize(
    ("env", "why"),
    [
        ({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": "4²"}, "DEV_GUILD_ID"),  # a digit to str.isdigit, not to int()
        ({"COMPUTER_PACE": "soon"}, "COMPUTER_PACE"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"TURN_CLOCK_CHECK_SECONDS": "0"}, "TURN_CLOCK_CHECK_SECONDS"),
        ({"TURN_CLOCK_CHECK_SECONDS": "0.5"}, "TURN_CLOCK_CHECK_SECONDS"),
    ],
)
def test_a_bad_setting_is_named(env: dict[str, str], why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        Config.from_env(env)


def test_dotenv_fills_what_the_environment_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nXH_TEST_A=from-file\nXH_TEST_B='quoted'\n")
    monkeypatch.setenv("XH_TEST_A", "from-env")
    monkeypatch.delenv("XH_TEST_B", raising=False)
    read_env_file(env_file)
    assert os.environ["XH_TEST_A"] == "from-env"
    assert os.environ["XH_TEST_B"] == "quoted"


def test_the_terminal_game_plays_typed_tokens() -> None:
    typed = "help\nlegal\n+a3NE\nwords\nzz\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "launcher", "--terminal"],
        input=typed,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": ""},
        timeout=60,
        check=True,
    )
    out = done.stdout
    assert "+a1E" in out  # `legal` listed the placements
    assert "1↗0" in out  # the plane stands on the board after +a3NE
    assert "Not played: 'zz'" in out
    assert "P2 to move" in out
    assert "- P1 brings a plane on at a3, facing north-east, height 0 (+a3NE)." in out
    assert "- Plane at a3, height 0, facing north-east." in out  # `words`


def test_the_bot_alone_without_a_token_says_where_to_go() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": ""},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "bash scripts/run" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("name", "value"), [("BOARD_PIXELS", "10"), ("WORKER_NICENESS", "99")])
def test_the_playground_refuses_a_bad_setting_as_the_bot_does(
    tmp_path: Path, name: str, value: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "launcher"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # no .env: the newcomer's first run
        env={**os.environ, "DISCORD_TOKEN": "", name: value},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Cannot start the playground" in done.stderr and name in done.stderr
    assert "Traceback" not in done.stderr
