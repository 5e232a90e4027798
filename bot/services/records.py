"""The stored records the Discord layer reads — a series, a tournament, a pairing and
their statuses — named here, so that ``bot.ui`` reaches storage only through the
services (``scripts/check_imports.py`` refuses a ``storage`` import under ``bot/ui``)."""

from __future__ import annotations

from storage.series import Series, SeriesStatus
from storage.tournaments import StoredPairing, Tournament, TournamentStatus

__all__ = ["Series", "SeriesStatus", "StoredPairing", "Tournament", "TournamentStatus"]
