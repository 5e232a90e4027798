"""A person's request refused: the one kind of error a person is answered with as it is.

Raised by every service (a match, a series, a tournament, a lesson, a vacation…) for
something a person asked that cannot be done, with the reason in their language;
``bot.ui.errors.report`` is the one place that answers it. Subclasses name the kinds
that code handles differently (``bot.services.live.NotYours`` …).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

from i18n import _
from storage.errors import StorageError

log = logging.getLogger(__name__)
T = TypeVar("T")


class Refusal(Exception):
    """Something a person asked for that cannot be done; the message is shown to them
    as it is."""


async def stored(write: Awaitable[T], what: str) -> T:
    """``write`` (or a read) of storage, or, where storage failed (rolled back whole, so
    memory is still as stored), the plain refusal to try again; ``what`` names it in
    the log."""
    try:
        return await write
    except StorageError as exc:
        log.warning("%s could not be stored or read (%s)", what, exc)
        raise Refusal(
            _("that could not be saved, so nothing changed; please try again in a moment")
        ) from None
