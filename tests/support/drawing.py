"""The texts a test's pictures draw: a spy on Pillow's ``ImageDraw.text`` (which still
draws), for the pictures drawn in this process (the render tests, and test bots, whose
workers are threads)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import ImageDraw

from bot.services import jobs


@dataclass(frozen=True)
class Drawn:
    """One text drawn: its words, its font's size and the width of the picture, in px."""

    text: str
    size: float
    width: int


def texts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A list that every text drawn from now on (in this test) is appended to."""
    said: list[str] = []
    _spy(monkeypatch, lambda drawn: said.append(drawn.text))
    return said


def sizes_drawn(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """A list that every text drawn from now on is appended to, with its size."""
    said: list[Drawn] = []
    _spy(monkeypatch, said.append)
    return said


def _spy(monkeypatch: pytest.MonkeyPatch, record: Callable[[Drawn], None]) -> None:
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        face = kwargs.get("font")
        record(Drawn(str(text), float(getattr(face, "size", 0)), self.im.size[0]))
        real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    # a sheet drawn before (another test's, same words) would come from the cache unseen
    jobs.draw_cards.cache_clear()
