"""A rating's story through localcord: alice and bob play ten rated duels (each ended by
a resignation once both sides have flown a turn); alice's ``/crosshairs profile`` shows
the picture of her duel rating after each game, her best win (bob at his highest before
a game she won), her win streaks, and her record against bob — every number as the
ratings lines posted after the games said."""

from __future__ import annotations

import io
import re

from PIL import Image

from e2e.conftest import Local
from localcord.autoplay import to_move
from localcord.client import People, answer, reply
from localcord.records import Channel, User
from render.palette import DARK

# alice's results, game by game: won four, lost one, won three, lost one, won one
ALICE_WINS = (True, True, True, True, False, True, True, True, False, True)
RATINGS = re.compile(r"alice (\d+)\??; bob (\d+)\??")


async def rated_duel(people: People, channel: Channel, alice: User, bob: User, won: bool) -> str:
    """One duel, resigned by its loser after both have flown a turn; its ratings line."""
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    flown: set[str] = set()
    while True:
        player, offered = await to_move(people, thread, [alice, bob])
        if len(flown) == 2 and player is alice:
            break
        flown.add(player.name)
        played = await people.slash(player, thread, "crosshairs move", tokens=offered[0])
        assert reply(played).startswith("✅"), reply(played)
    loser = bob if won else alice
    confirm = answer(await people.slash(loser, thread, "crosshairs resign"))
    assert confirm is not None
    await people.click(loser, confirm, "Yes, resign")
    line = await people.wait_for(thread, lambda m: m.content.startswith("📊"))
    return line.content


async def test_a_rating_history_after_ten_games(local: Local) -> None:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")
    shown = [(1500, 1500)]  # (alice, bob) before the first game, then after each
    for number, won in enumerate(ALICE_WINS):
        room = local.server.world.add_channel(f"duel-{number}", channel.guild_id)
        line = await rated_duel(people, room, alice, bob, won)
        found = RATINGS.search(line)
        assert found is not None, line
        shown.append((int(found[1]), int(found[2])))

    asked = await people.slash(alice, channel, "crosshairs profile", opponent=bob)
    profile = answer(asked)
    assert profile is not None and profile.embeds and profile.attachments
    fields = {f["name"]: f["value"] for f in profile.embeds[0]["fields"]}
    best = max(shown[game][1] for game, won in enumerate(ALICE_WINS) if won)
    assert fields["Best win"].startswith(f"bob ({best}) in match #")
    assert fields["Win streak"] == "1 now · longest 4"
    assert fields["Against bob"] == "8 won · 2 lost · 0 drawn or won by neither"

    picture = profile.attachments[0]
    assert picture.filename == "rating.png"
    assert picture.description == (
        f"alice's rating. Duels: 1500 to {shown[-1][0]} over 10 rated games."
    )
    image = Image.open(io.BytesIO(await people.download(profile))).convert("RGB")
    assert image.size == (640, 360)
    # the duel's line, in the first seat's colour, with its eleven markers
    counts = {colour: n for n, colour in image.getcolors(640 * 360) or []}
    assert counts.get(DARK.seats[0], 0) > 11 * 40, counts.get(DARK.seats[0])

    bobs = answer(await people.slash(bob, channel, "crosshairs profile"))
    assert bobs is not None
    bob_fields = {f["name"]: f["value"] for f in bobs.embeds[0]["fields"]}
    assert bob_fields["Win streak"] == "0 now · longest 1"
