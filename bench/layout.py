"""The board message as it is, and as a Components V2 layout: ``.venv/bin/python bench/layout.py``.

Discord's Components V2 (message flag ``IS_COMPONENTS_V2``, 1 << 15) puts a message's
text, pictures and buttons in components: a container holding a text display, a media
gallery showing the attached board and an action row of buttons. The board message
already carries the board picture, the turn so far in words and its buttons in one
message, so the question is whether the layout saves calls, messages or presses.

Both shapes go through a player-turn against the local Discord (its strict checks on,
so each body is held to Discord's spec and documented rules) with discord.py's own
classes (``discord.ui.View`` and ``discord.ui.LayoutView``): the board posted, edited
after each plane action, then turned into the turn told in words. Printed per shape:
REST calls, messages posted, bytes of JSON sent per call, and localcord's strict-mode
failures (a body Discord would refuse, or an answer of localcord's own unlike
Discord's); the buttons, hence the presses, are the same in both.
"""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path: put the repository root
# there instead, as the other benchmarks do.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

import discord  # noqa: E402

from localcord.checks import recording  # noqa: E402
from localcord.server import LocalDiscord  # noqa: E402
from render.board import board_png  # noqa: E402

ACTIONS = 3  # plane actions in the player-turn: the board is edited after each
BUTTONS = ("Play", "Lines of fire", "Record", "Offer draw", "Resign")
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "render" / "golden" / "1v2.json"


def _buttons() -> list[discord.ui.Button[discord.ui.View]]:
    return [
        discord.ui.Button(label=label, custom_id=f"layout:{i}") for i, label in enumerate(BUTTONS)
    ]


def classic(text: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in _buttons():
        view.add_item(button)
    return view


def layout(text: str) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(text),
            discord.ui.MediaGallery(
                discord.MediaGalleryItem("attachment://board.png", description="the board")
            ),
            discord.ui.ActionRow(*_buttons()),
        )
    )
    return view


async def post(target: discord.TextChannel, shape: str, text: str, png: bytes) -> discord.Message:
    file = discord.File(io.BytesIO(png), "board.png")
    if shape == "classic":
        return await target.send(text, file=file, view=classic(text))
    return await target.send(file=file, view=layout(text))


async def edit(message: discord.Message, shape: str, text: str, png: bytes | None) -> None:
    """The board edited (``png``), or turned into the turn told in words (None)."""
    files = [] if png is None else [discord.File(io.BytesIO(png), "board.png")]
    if shape == "classic":
        await message.edit(
            content=text, attachments=files, view=None if png is None else classic(text)
        )
    elif png is None:
        words = discord.ui.LayoutView(timeout=None)
        words.add_item(discord.ui.TextDisplay(text))
        await message.edit(attachments=files, view=words)
    else:
        await message.edit(attachments=files, view=layout(text))


async def turn(shape: str) -> tuple[int, int, float, list[str]]:
    """One player-turn's board messages in ``shape``: (calls, posts, JSON bytes per call,
    spec failures)."""
    png = board_png(GOLDEN.read_text(), size=1024)
    with recording():
        server = LocalDiscord(strict=True)
        await server.start()
        client = discord.Client(intents=discord.Intents.none())
        discord.http.Route.BASE = server.api_base
        sent: list[int] = []
        request = client.http.request

        async def counted(route: discord.http.Route, **kwargs: object) -> object:
            form = kwargs.get("form") or ()
            payload = kwargs.get("json")
            for part in form:  # type: ignore[attr-defined]
                if part.get("name") == "payload_json":
                    payload = part["value"]
            sent.append(len(payload if isinstance(payload, str) else str(payload or "")))
            return await request(route, **kwargs)  # type: ignore[arg-type]

        client.http.request = counted  # type: ignore[method-assign]
        try:
            await client.login("localcord-test-token")
            channel = server.world.add_channel("layout")
            target = await client.fetch_channel(channel.id)
            assert isinstance(target, discord.TextChannel)
            before = len(server.world.requests)
            sent.clear()
            text = "**Crosshairs #1** · Duel\n<@1>, your turn — press **Play**."
            message = await post(target, shape, text, png)
            for action in range(ACTIONS):
                await edit(message, shape, f"{text}\nplane action {action + 1} flown", png)
            await edit(message, shape, "Turn 1, alice: three plane actions, told in words.", None)
            calls = server.world.requests[before:]
            posts = sum(1 for r in calls if r.method == "POST")
            return len(calls), posts, sum(sent) / max(1, len(sent)), list(server.checks.failures)
        finally:
            await client.close()
            await server.stop()


def main() -> int:
    print(f"one player-turn of {ACTIONS} plane actions: the board posted, edited, told in words")
    for shape in ("classic", "components-v2"):
        calls, posts, size, failures = asyncio.run(turn(shape))
        print(
            f"  {shape:14} {calls} REST calls ({calls / ACTIONS:.2f} per plane action), "
            f"{posts} message posted, {size:.0f} bytes of JSON per call, "
            f"presses per plane action unchanged (same {len(BUTTONS)} buttons); "
            f"spec failures: {len(failures)}"
        )
        for failure in failures:
            print(f"    {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
