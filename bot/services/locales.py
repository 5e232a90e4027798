"""Each person's own language, remembered: Discord tells a bot a person's locale only
with an interaction of theirs, and a DM about their game is sent when someone else acts
(or a clock ticks), so the bot keeps the locale of each person's latest interaction
(:mod:`storage.locales`) to write those DMs in it (:mod:`bot.services.notifications`).

Every interaction is :meth:`Locales.heard` (``CrosshairsBot.on_interaction``) without
waiting on anything; memory holds the :data:`KEPT` people heard or read last, so an
interaction in the language already known costs no query, and one in a new language
(or the first this process sees of a person) is stored in the background
(:meth:`Locales.store`): read, and written only when it differs. Several processes
(shards) each keep their own memory; one that still holds a person's older language
writes nothing until it hears them change it (docs/localisation.md).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

from storage.locales import LONGEST, LocaleRepo

log = logging.getLogger(__name__)

KEPT: Final = 4096  # people whose locale is held in memory


class Locales:
    def __init__(self, repo: LocaleRepo, kept: int = KEPT) -> None:
        self.repo = repo
        self._kept = kept
        self._known: OrderedDict[int, str] = OrderedDict()

    def heard(self, user_id: int, locale: str) -> bool:
        """Note the locale of an interaction of ``user_id``; True when it must be
        stored (:meth:`store`: a person not in memory, or a new language). What is no
        Discord locale (empty, or longer than any) is not heard at all."""
        if not 0 < len(locale) <= LONGEST:
            return False
        if self._known.get(user_id) == locale:
            self._known.move_to_end(user_id)
            return False
        self._keep(user_id, locale)
        return True

    async def store(self, user_id: int, locale: str) -> None:
        """Write what :meth:`heard` noted, if storage holds another locale. A failed
        write is logged and forgotten from memory too, so the next interaction tries
        again; a later interaction heard meanwhile writes its own."""
        try:
            stored = await self.repo.get([user_id])
            if stored.get(user_id) != locale and self._known.get(user_id) == locale:
                await self.repo.set(user_id, locale)
        except Exception:
            log.exception("the locale of %s was not stored", user_id)
            if self._known.get(user_id) == locale:
                del self._known[user_id]

    async def of(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The latest locale of each of ``user_ids`` heard from, in memory or stored."""
        found = {u: self._known[u] for u in user_ids if u in self._known}
        missing = [u for u in user_ids if u not in found]
        for user_id, locale in (await self.repo.get(missing)).items():
            if user_id not in self._known:  # else heard meanwhile: that is the latest
                self._keep(user_id, locale)
            found[user_id] = self._known.get(user_id, locale)
        return found

    def _keep(self, user_id: int, locale: str) -> None:
        self._known[user_id] = locale
        self._known.move_to_end(user_id)
        if len(self._known) > self._kept:
            self._known.popitem(last=False)
