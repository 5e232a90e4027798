"""scripts/check_imports.py, run as scripts/test runs it, on small package trees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_imports.py"


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def check(root: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True, check=False
    )
    assert done.stderr == ""
    return done.returncode, done.stdout


CLEAN = {
    "rules/__init__.py": "",
    "rules/board.py": "import math\n",
    "rules/game.py": "from rules import board\nfrom . import board as b\n",
    "render/__init__.py": "from rules.game import board\n",
    "storage/__init__.py": "import sqlite3\n",
    "bot/__init__.py": "",
    "bot/app.py": "import discord\nfrom render import *\nfrom storage import x\n",
    "localcord/__init__.py": "from bot.app import run\n",
}


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    code, out = check(tree(tmp_path, CLEAN))
    assert code == 0, out
    assert out.startswith("imports clean")


def test_a_circle_through_a_lazy_import_in_a_function_is_found(tmp_path: Path) -> None:
    files = {
        **CLEAN,
        "rules/cards.py": "def award():\n    from .game import Game\n",
        "rules/game.py": "from rules import cards\n",
    }
    code, out = check(tree(tmp_path, files))
    assert code == 1
    assert "import circle of 2 modules: rules.cards, rules.game" in out
    assert "rules.cards (line 2) imports rules.game" in out
    assert "rules.game (line 1) imports rules.cards" in out


def test_a_circle_hidden_under_type_checking_through_a_package_init_is_found(
    tmp_path: Path,
) -> None:
    files = {
        **CLEAN,
        "bot/ui/__init__.py": "from bot.ui import buttons\n",
        "bot/ui/buttons.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app import App\n"
        ),
        "bot/app.py": "import bot.ui\n",
    }
    code, out = check(tree(tmp_path, files))
    assert code == 1
    assert "import circle of 3 modules: bot.app, bot.ui, bot.ui.buttons" in out


def test_a_module_importing_itself_is_a_circle(tmp_path: Path) -> None:
    code, out = check(tree(tmp_path, {**CLEAN, "rules/board.py": "from rules import board\n"}))
    assert code == 1
    assert "import circle of 1 modules: rules.board" in out


def test_layer_violations_are_found(tmp_path: Path) -> None:
    files = {
        **CLEAN,
        "rules/explain.py": "from render import draw\n",
        "storage/db.py": "import discord.ext\n",
        "bot/launch.py": "def go():\n    from localcord.playground import serve\n",
        "competition/__init__.py": "from storage import db\n",
        "storage/series.py": "Series = 1\n",
        "bot/ui/__init__.py": "",
        "bot/ui/series.py": "from bot.app import x\nfrom storage.series import Series\n",
    }
    code, out = check(tree(tmp_path, files))
    assert code == 1
    assert "rules.explain (line 1) imports render (rules may import only i18n of ours" in out
    assert "storage.db (line 1) imports discord (storage must not import" in out
    assert "bot.launch (line 2) imports localcord (bot must not import launcher, localcord)" in out
    assert "competition (line 1) imports storage.db (competition may import only i18n, rules" in out
    assert (
        "bot.ui.series (line 2) imports storage.series "
        "(bot.ui must not import launcher, localcord, storage)" in out
    )
    assert "bot.ui.series (line 1)" not in out  # the services are bot.ui's way to storage
    assert out.strip().endswith("0 import circle(s), 5 layer violation(s)")
