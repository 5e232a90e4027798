"""The live board in the playground as a newcomer starts it (``python -m launcher``, no
token): the bot's own page, Discord's real Embedded App SDK inside localcord's parent
frame, headless Chromium. Amy and Ben, each in their own browser context, open it from
the channel's App Launcher (the board lives in a thread, where Discord launches no
Activity: the board's *Live board* button says so) and play a whole duel by tapping,
while Cleo, in a third context, watches the thread; one move is made with the thread's
buttons in the middle and appears live in both Activities. The thread tells it all as
it does for a duel played with buttons: its boards, each turn in words, the ratings. Then
the rematch, asked on Amy's page and accepted on Ben's, told in the thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from e2e.browser import needs_chromium, shots_dir
from e2e.live_frames import a_duel_by_tapping

pytestmark = [needs_chromium, pytest.mark.timeout(600)]


def test_a_duel_tapped_on_the_live_board_in_the_playground(playground: str, tmp_path: Path) -> None:
    a_duel_by_tapping(playground, shots_dir(tmp_path))
