"""A whole tournament in a German server, against the real bot process: an organiser and
four pilots whose Discord is set to German. The sign-up message and its buttons, joining
twice (refused), checking in, the no-show dropped when check-in closes, the start, round
1's pairings with a bye, a game in its thread ended by resignation and booked, the
standings (words and the picture's alt text), round 2 paused and resumed, a result set by
the organiser, the final standings and the winner: nothing any of them is shown has an
English word (i18n, docs/localisation.md; what counts as one: :mod:`e2e.english`)."""

from __future__ import annotations

from e2e.conftest import Local
from e2e.test_e2e_german import Reader
from localcord.autoplay import to_move
from localcord.client import People, answer, reply
from localcord.state import Channel, Message, User

NAME = "Herbstpokal"


async def test_a_swiss_tournament_in_german_shows_no_english_word(german: Local) -> None:
    local, people, channel = german, german.people, german.channel
    olga = people.join("olga", "de", moderator=True)  # organises: Manage Server
    anna, bernd, carla, dora = (people.join(n, "de") for n in ("anna", "bernd", "carla", "dora"))
    pilots = [anna, bernd, carla, dora]
    reader = Reader(local, [olga, *pilots])

    created = await people.slash(
        olga,
        channel,
        "crosshairs-tournament create",
        name=NAME,
        format="swiss",
        rounds=2,
        check_in=True,
    )
    sign_up = await people.wait_for(channel, lambda m: m.content.startswith(f"🏆 **{NAME}**"))
    assert created.original is not None
    assert "Schweizer System, 2 Runden" in sign_up.content
    assert [b["label"] for b in sign_up.buttons()] == [
        "Anmelden",
        "Gehen",
        "Einchecken",
        "Einchecken schließen",
        "Starten",
    ]
    for pilot in pilots:
        assert "Du bist dabei" in reply(await people.click(pilot, sign_up, "Anmelden"))
    assert "schon angemeldet" in reply(await people.click(anna, sign_up, "Anmelden"))
    for pilot in pilots[:3]:  # dora never checks in
        assert "Eingecheckt" in reply(await people.click(pilot, sign_up, "Einchecken"))
    sign_up = await people.wait_for(channel, lambda m: "Angemeldet (4)" in m.content)
    reader.look()

    await people.click(olga, sign_up, "Starten")
    await people.wait_for(channel, lambda m: f"ausgeschieden: {dora.mention}" in m.content)
    await people.wait_for(channel, lambda m: m.content == f"🏁 **{NAME}** beginnt!")
    first = await people.wait_for(
        channel, lambda m: m.content.startswith(f"📣 **{NAME} — Runde 1**")
    )
    assert "hat ein Freilos" in first.content and " gegen " in first.content
    thread = await people.wait_thread(channel)
    assert thread.name.startswith(f"{NAME} R1 T1: ") and " gegen " in thread.name
    players = [p for p in pilots if p.mention in first.content.splitlines()[1]]
    await resign_after_a_turn(people, thread, players, reader)
    await people.wait_for(channel, lambda m: m.content.startswith(f"📝 {NAME} Runde 1, Tisch 1: "))
    table = await people.wait_for(channel, lambda m: "Tabelle (nach Runde 1)" in m.content)
    assert "Tabelle" in table.attachments[0].description

    second = await people.wait_for(
        channel, lambda m: m.content.startswith(f"📣 **{NAME} — Runde 2**")
    )
    pairing = next(line for line in second.content.splitlines() if " gegen " in line)
    player, opponent = (p for p in pilots if p.mention in pairing)
    paused = await people.slash(olga, channel, "crosshairs-tournament pause")
    assert "ist pausiert" in reply(paused)
    assert "geht weiter" in reply(await people.slash(olga, channel, "crosshairs-tournament resume"))
    reader.look()
    done = await people.slash(
        olga,
        channel,
        "crosshairs-tournament result",
        player=player,
        opponent=opponent,
        outcome="player",
    )
    assert f"gewinnt {player.mention}" in reply(done)
    await people.wait_for(channel, lambda m: "Tabelle (Endstand)" in m.content)
    end = await people.wait_for(
        channel, lambda m: m.content.startswith(f"🏆 **{NAME}** ist beendet")
    )
    assert "Turniersieg: <@" in end.content
    number = int(sign_up.content.split("(Turnier #", 1)[1].split(")", 1)[0])
    over = await people.slash(anna, channel, "crosshairs-tournament standings")
    assert "kein Turnier offen" in reply(over)  # the event is over: asked by number
    await people.slash(anna, channel, "crosshairs-tournament standings", tournament_id=number)
    table = await people.wait_for(channel, lambda m: m.content.startswith("1. "))
    assert "Tabelle" in table.attachments[0].description
    reader.look()

    assert len(reader.read) > 30  # it did read the event
    assert reader.english() == {}


async def resign_after_a_turn(
    people: People, thread: Channel, players: list[User], reader: Reader
) -> None:
    """Both fly their first turn (a resignation before that calls the game off), then
    the first resigns."""
    flown: list[User] = []
    while True:
        reader.look()
        player, offered = await to_move(people, thread, players)
        if len({p.id for p in flown}) == 2 and player is flown[0]:
            break
        flown.append(player)
        played = await people.slash(player, thread, "crosshairs move", tokens=offered[0])
        assert reply(played).startswith("✅"), reply(played)
    confirm: Message | None = answer(await people.slash(player, thread, "crosshairs resign"))
    assert confirm is not None
    reader.look()
    await people.click(player, confirm, "Ja, aufgeben")
