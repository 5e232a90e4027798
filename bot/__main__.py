"""``python -m bot``: run the Discord bot with the token from the environment.

``bash scripts/run`` (:mod:`launcher`) is the friendlier entry: it reads ``.env`` and,
with no token, starts the playground instead.
"""

from __future__ import annotations

import sys

from bot.app import run_bot

if __name__ == "__main__":
    sys.exit(run_bot())
