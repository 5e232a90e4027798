"""``python -m launcher``: what ``bash scripts/run`` starts."""

from __future__ import annotations

import sys

from launcher.main import main

if __name__ == "__main__":
    sys.exit(main())
