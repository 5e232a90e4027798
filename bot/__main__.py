"""``python -m bot``: run the Discord bot, or, with no token, the local game."""

from __future__ import annotations

import sys

from bot.launch import main

if __name__ == "__main__":
    sys.exit(main())
