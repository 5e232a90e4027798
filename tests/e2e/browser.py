"""Driving the playground in Debian's Chromium: the browser's flags, the skip mark for a
machine without it, the playground process as a fixture, and acting as a pilot."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium (scripts/setup installs it)"
)


def run_playground(tmp_path: Path) -> Iterator[str]:
    """Start ``python -m launcher`` with no token as a newcomer would; yield the page's address."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    said = tmp_path / "playground.out"
    with said.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "launcher"],
            cwd=tmp_path,  # no .env here: this is the newcomer's first run
            env=env | {"PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while not (found := re.search(r"(http://127\.0\.0\.1:\d+/)", said.read_text())):
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail("the playground printed no address:\n" + said.read_text())
            time.sleep(0.1)
        assert "DISCORD_TOKEN" in said.read_text()  # it says how to connect to Discord first
        yield found[1]
        process.send_signal(signal.SIGINT)
        assert process.wait(15) == 0, said.read_text()  # Ctrl-C stops it cleanly
    finally:
        process.kill()


def act_as(page: Page, pilot: str) -> None:
    """Switch person, and wait until the page shows the channel as they see it."""
    chosen = page.select_option("#viewer", label=pilot)[0]
    page.wait_for_selector(f"#messages[data-viewer='{chosen}']", state="attached")
