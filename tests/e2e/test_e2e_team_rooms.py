"""A team game's private team rooms, through what players touch: a lobby for 1 vs 2, the
rooms each team alone can read (not the opponents, not a spectator), the cockpit's
**Share with my team**, the rooms archived and locked when the match ends, and a server
where the bot may not create private threads (the match goes on and says why, once)."""

from __future__ import annotations

from e2e.conftest import Local
from localcord import permissions
from localcord.autoplay import board_message
from localcord.client import People, answer, reply
from localcord.records import PRIVATE_THREAD, PUBLIC_THREAD, Channel, User


async def lobby_1v2(local: Local, amy: User, ben: User, cleo: User) -> Channel:
    """Amy alone (A) against Ben and Cleo (B and C): the match's thread once it has its
    board."""
    people = local.people
    opened = await people.slash(amy, local.channel, "crosshairs lobby", mode="1v2")
    lobby = opened.original
    assert lobby is not None, reply(opened)
    await people.click(ben, lobby, "Sit B")
    await people.click(cleo, lobby, "Sit C")
    await people.click(amy, lobby, "Start")
    return await match_thread(people, local.channel)


async def match_thread(people: People, channel: Channel) -> Channel:
    await people.wait_for(channel, lambda m: "<#" in m.content and "is on" in m.content)
    thread = next(t for t in people.world.threads_of(channel) if t.type == PUBLIC_THREAD)
    await people.wait_for(thread, lambda m: bool(m.attachments))
    return thread


async def rooms(people: People, channel: Channel, count: int) -> list[Channel]:
    """The private threads under ``channel`` once ``count`` of them have their welcome."""

    def welcomed() -> list[Channel] | None:
        found = [t for t in people.world.threads_of(channel) if t.type == PRIVATE_THREAD]
        return found if len(found) == count and all(people.read(t) for t in found) else None

    return await people.wait_until(welcomed, f"{count} team rooms with their welcome")


async def test_each_team_reads_only_its_own_room_shares_a_plan_and_it_closes_at_the_end(
    local: Local,
) -> None:
    people, world = local.people, local.server.world
    amy, ben, cleo = people.join("amy"), people.join("ben"), people.join("cleo")
    dev = people.join("dev")  # watching
    thread = await lobby_1v2(local, amy, ben, cleo)
    alone, pair = sorted(await rooms(people, local.channel, 2), key=lambda t: len(t.members))
    assert alone.name.startswith("Team A · #") and pair.name.startswith("Team B+C · #")

    welcome = people.read(pair, ben)[0]
    assert "only your team sees it" in welcome.content
    assert f"<@{ben.id}>" in welcome.content and f"<@{cleo.id}>" in welcome.content
    assert people.read(pair, cleo) == [welcome]
    for outsider in (amy, dev):  # the opponent and a spectator
        assert people.read(pair, outsider) == []
        assert not permissions.sees(world, outsider.id, pair)
    for outsider in (ben, cleo, dev):
        assert people.read(alone, outsider) == []
    assert [m.id for m in people.read(alone, amy)] == [m.id for m in people.read(alone)]

    # Amy flies first: her cockpit's preview goes to her room with one press
    cockpit = answer(await people.click(amy, board_message(people, thread), "Play"))
    assert cockpit is not None and cockpit.attachments
    shared = await people.click(amy, cockpit, "Share with my team")
    assert "Shared with your team" in reply(shared) and f"<#{alone.id}>" in reply(shared)
    plan = await people.wait_for(alone, lambda m: "shares a plan" in m.content, viewer=amy)
    assert plan.attachments and plan.attachments[0].filename == "plan.png"
    assert (await people.download(plan)).startswith(b"\x89PNG")
    assert plan not in people.read(alone, ben) and people.read(pair, amy) == []
    # the rooms are no place to fly from: nobody's cockpit there, no board
    assert not any(m.attachments and m.components for m in people.read(alone))

    # the match ends (Amy resigns before everyone flew: it is aborted): rooms close
    asked = answer(await people.click(amy, board_message(people, thread), "Resign"))
    assert asked is not None
    await people.click(amy, asked, "Yes, resign")
    for room in (alone, pair):
        await people.wait_for(room, lambda m: "this room is archived" in m.content)
        await _closed(people, room)
    assert "this room is archived" in people.read(pair, ben)[-1].content


async def _closed(people: People, room: Channel) -> None:
    def closed() -> bool | None:
        return True if room.archived and room.locked else None

    await people.wait_until(closed, f"#{room.name} archived and locked")


async def test_without_create_private_threads_the_match_goes_on_and_says_why_once(
    local: Local,
) -> None:
    people, world = local.people, local.server.world
    permissions.deny(world, local.channel, "create_private_threads")
    amy, ben, cleo = people.join("amy"), people.join("ben"), people.join("cleo")
    thread = await lobby_1v2(local, amy, ben, cleo)
    said = await people.wait_for(thread, lambda m: "No team rooms" in m.content)
    assert "Create Private Threads" in said.content and "The match goes on" in said.content
    assert not any(t.type == PRIVATE_THREAD for t in world.threads_of(local.channel))
    # the match is played as ever, and the reason is not said again
    cockpit = answer(await people.click(amy, board_message(people, thread), "Play"))
    assert cockpit is not None and cockpit.selects()
    assert all(b.get("label") != "Share with my team" for b in cockpit.buttons())
    assert sum("No team rooms" in m.content for m in people.read(thread)) == 1
    # an admin's setup check says what the missing permission is for
    admin = people.join("admin", moderator=True)
    checked = reply(await people.slash(admin, local.channel, "crosshairs setup check"))
    assert (
        f"<#{local.channel.id}>: ✅ ready, without Create Private Threads "
        "(to open a private room for each team in team games)"
    ) in checked
