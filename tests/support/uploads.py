"""Every file the bot uploads to simcord's Discord, with its alt text and bytes: a pytest
plugin (``tests/conftest.py`` loads it) whose ``uploads`` fixture records at the fake
CDN, where every attachment lands whichever route sent it (message, edit, follow-up)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from simcord.backend.cdn import CdnStore


class Upload(NamedTuple):
    filename: str
    description: str | None
    data: bytes


@pytest.fixture
def uploads(monkeypatch: pytest.MonkeyPatch) -> list[Upload]:
    found: list[Upload] = []
    store = CdnStore.store_attachment

    def recording(
        self: CdnStore,
        attachment_id: int,
        channel_id: int,
        filename: str,
        data: bytes,
        description: str | None,
    ) -> dict[str, Any]:
        found.append(Upload(filename, description, data))
        return store(self, attachment_id, channel_id, filename, data, description)

    monkeypatch.setattr(CdnStore, "store_attachment", recording)
    return found
