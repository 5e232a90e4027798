"""The playground's markdown for a fenced code block, as Discord shows it: the block
whole and as written, with no stray backticks (an analysis report is one)."""

from __future__ import annotations

from types import SimpleNamespace

from localcord.playground import Playground


def html(text: str) -> str:
    page = SimpleNamespace(world=SimpleNamespace(users={}, channels={}))
    page._html = lambda t: Playground._html(page, t)  # type: ignore[arg-type]
    return str(page._html(text))


def test_a_fenced_code_block_is_shown_whole_without_stray_backticks() -> None:
    shown = html("🔎 **Analysis**\n```\n  9  Ann  -3.0  b7C *f6 <x>\n```")
    assert shown == (
        "🔎 <b>Analysis</b>\n"
        '<pre class="code-block"><code>  9  Ann  -3.0  b7C *f6 &lt;x&gt;</code></pre>'
    )
    assert "`" not in shown


def test_inline_code_and_an_unclosed_fence_are_left_as_before() -> None:
    assert html("play `d4C`") == "play <code>d4C</code>"
    assert html("a ``` b") == "a ``` b"
