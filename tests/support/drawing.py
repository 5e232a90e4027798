"""The texts a test's pictures draw: a spy on Pillow's ``ImageDraw.text`` (which still
draws), for the pictures drawn in this process (the render tests, and test bots, whose
workers are threads)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw


def texts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A list that every text drawn from now on (in this test) is appended to."""
    said: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        said.append(str(text))
        real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return said
