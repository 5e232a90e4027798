"""A person's request refused: the one kind of error a person is answered with as it is.

Raised by every service (a match, a series, a tournament, a lesson, a vacation…) for
something a person asked that cannot be done, with the reason in their language;
``bot.ui.errors.report`` is the one place that answers it. Subclasses name the kinds
that code handles differently (``bot.services.live.NotYours`` …).
"""

from __future__ import annotations


class Refusal(Exception):
    """Something a person asked for that cannot be done; the message is shown to them
    as it is."""
