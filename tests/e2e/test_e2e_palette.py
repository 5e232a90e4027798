"""Board palettes through localcord: a server's admin sets the server's default, and the
match thread's board is drawn in it; a player chooses their own, and their next cockpit
preview is drawn in theirs while the thread keeps the server's (the pictures' pixels
say so). Someone without Manage Server cannot change the server's."""

from __future__ import annotations

import io

from PIL import Image

from e2e.conftest import Local
from localcord.autoplay import board_message, to_move
from localcord.client import People, reply
from localcord.records import Message, User
from render.palette import PALETTES, RGB, Theme


def near(a: RGB, b: RGB, within: int = 10) -> bool:
    return all(abs(x - y) <= within for x, y in zip(a, b, strict=True))


async def colours_of(people: People, message: Message) -> tuple[RGB, list[RGB]]:
    """The picture's corner (the page behind everything) and all its pixels."""
    picture = Image.open(io.BytesIO(await people.download(message))).convert("RGB")
    return picture.getpixel((2, 2)), list(picture.getdata())  # type: ignore[return-value]


async def width_of(people: People, message: Message) -> int:
    return Image.open(io.BytesIO(await people.download(message))).width


def drawn_in(corner: RGB, pixels: list[RGB], theme: Theme) -> bool:
    """Its page is the theme's and its first two seats' colours are painted on it."""
    painted = all(sum(near(p, c) for p in pixels) > 200 for c in theme.seats[:2])
    return near(corner, theme.page, 2) and painted


async def cockpit_of(people: People, player: User, board: Message) -> Message:
    opened = await people.click(player, board, "Play")
    assert opened.followups and opened.followups[-1].attachments, reply(opened)
    return opened.followups[-1]


async def test_a_server_default_for_threads_and_a_players_own_for_the_cockpit(
    local: Local,
) -> None:
    people, channel = local.people, local.channel
    admin = people.join("admin", moderator=True)
    alice, bob = people.join("alice"), people.join("bob")
    contrast, colour_blind = PALETTES["contrast"], PALETTES["colourblind"]

    refused = await people.slash(bob, channel, "crosshairs palette", colours="dark", server=True)
    assert "Manage Server" in reply(refused)
    said = await people.slash(admin, channel, "crosshairs palette", colours="contrast", server=True)
    assert "This server's match boards are drawn in the high contrast palette" in reply(said)

    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    mover = (await to_move(people, thread, [alice, bob]))[0]
    board = board_message(people, thread)
    assert drawn_in(*await colours_of(people, board), contrast)
    # a player with no palette of their own sees the server's
    preview = await cockpit_of(people, mover, board)
    assert drawn_in(*await colours_of(people, preview), contrast)
    # at the size the bot is set to draw (BOARD_PIXELS), the preview three quarters of it
    size = int(local.bot.env()["BOARD_PIXELS"])
    assert (await width_of(people, board), await width_of(people, preview)) == (
        size,
        size * 3 // 4,
    )

    chosen = await people.slash(mover, thread, "crosshairs palette", colours="colourblind")
    assert "drawn in the colour-blind safe palette" in reply(chosen)
    cockpit = await cockpit_of(people, mover, board_message(people, thread))
    corner, pixels = await colours_of(people, cockpit)
    assert drawn_in(corner, pixels, colour_blind)
    assert not drawn_in(corner, pixels, contrast)
    # the thread's board is everyone's: still the server's palette
    assert drawn_in(*await colours_of(people, board_message(people, thread)), contrast)


async def test_a_palette_that_is_not_offered_is_refused(local: Local) -> None:
    people = local.people
    alice = people.join("alice")
    said = await people.slash(alice, local.channel, "crosshairs palette", colours="sepia")
    assert "choose one of the palettes" in reply(said)
