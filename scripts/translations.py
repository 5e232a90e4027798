"""Bring the translation catalogues up to date with the code (bot/catalogues.py).

Run: python scripts/translations.py   — writes i18n/crosshairs.pot and merges it into
i18n/locales/<lang>/LC_MESSAGES/crosshairs.po; then translate the empty entries.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.catalogues import update


def main() -> int:
    for lang, missing in update().items():
        print(f"{lang}: {missing} texts to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
