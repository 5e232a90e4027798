"""The club that plays the series tests; the bot is the shared one (tests/support/bots.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .support import Club


@pytest.fixture
def club(simcord_env: Any) -> Club:
    return Club(simcord_env)
