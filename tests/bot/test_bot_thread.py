"""The match thread as spectators read it: one message per player-turn telling it in
words, then the board; the record on request; draw offers, resignations and seats."""

from __future__ import annotations

import random
from typing import Any

import discord
from support.flying import fly_first_turns, match_in
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services import jobs
from bot.services import live as live_module
from bot.services.clock import FakeClock
from bot.ui.glyphs import glyphs_of
from render.board import board_png
from rules import board
from rules.words import telling
from rules.words.telling import record_text

# A duel of three planes, no clouds: bob swoops, flies level and crashes a plane; alice's
# turn then begins with an automatic shot that leaves bob one plane, and he is out.
GAME = [
    *("+a6NE", "+k11SW", "+k6SE", "+a1NE", "a6F", "+a4SE", "+k8NE", "k6F", "k11C"),
    *("a1F", "c8C<", "a4X", "j10S<", "i6F<", "k8X"),
]


async def fly(
    table: Table, bot: CrosshairsBot, thread: Any, tokens: list[str], live: Any = None
) -> None:
    live = live or next(iter(bot.games.live_matches()))
    for token in tokens:
        mover = table.alice if live.user_to_move() == table.alice.id else table.bob
        result = await mover.slash(thread, "crosshairs move", tokens=token)
        assert answer(result).content.startswith("✅"), answer(result).content


def insignia(bot: CrosshairsBot, name: str) -> str:
    """The glyph a turn told in words starts with: the emoji and a space."""
    emoji = glyphs_of(bot).emojis[name]
    return f"<:{name}:{emoji.id}> "


def button_labels(message: Any) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def test_each_turn_is_told_word_for_word_then_the_board(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    await fly(table, simcord_bot, thread, GAME)
    said = [m.content for m in thread.history()]
    final = board_message(thread)
    at = said.index(final.content)
    # each turn told starts with its seat's insignia, an application emoji (bot/ui/glyphs.py)
    p1, p2 = (insignia(simcord_bot, name) for name in ("xh_orange_circle", "xh_sky_blue_square"))
    assert said[at - 3 : at] == [
        f"{p1}Turn 5, alice (P1) (a1F c8C< a4X):\n"
        "- alice (P1)'s plane flies level from a1 to c3, still facing north-east, now height 0"
        " (a1F).\n"
        "- alice (P1)'s plane climbs from c8 to d9, turns left to face north-west, now height 1"
        " (c8C<).\n"
        "- alice (P1)'s plane at a4 cannot fly on and crashes (a4X).",
        f"{p2}Turn 6, bob (P2) (j10S< i6F< k8X):\n"
        "- bob (P2)'s plane swoops from j10 to i9, turns left to face south-east, now height 0"
        " (j10S<).\n"
        "- bob (P2)'s plane flies level from i6 to g6, turns left to face east, now height 0"
        " (i6F<).\n"
        "- bob (P2)'s plane at k8 cannot fly on and crashes (k8X).",
        f"{p1}Turn 7, alice (P1) (*i9):\n"
        "- Automatic fire: alice (P1) shoots down bob (P2)'s plane at i9, caught by the planes"
        " at d9 and c3 (*i9).\n"
        "- bob (P2) is out with only one plane left: their last plane leaves the board from g6.\n"
        "- alice (P1) wins (last standing).",
    ]
    # the introduction heads the first turn told, which its first board became
    intro, first = said[0].split("\n\n", 1)
    assert intro.startswith("✈️ **Match #1**") and "Seats: alice (P1)" in intro
    turns = [s.removeprefix(p1).removeprefix(p2) for s in [first, *said[1:]]]
    turns = [s for s in turns if s.startswith("Turn ")]
    assert [s.split(",", 1)[0] for s in turns] == [f"Turn {n}" for n in range(1, 8)]
    assert final.content == (
        "**Crosshairs #1** · Duel · 2026 rules\n"
        "alice (P1) wins (last standing).\n"
        "Use `/crosshairs replay match:1` to watch it again, `/crosshairs record` to read it."
    )
    # a finished game offers its rematch, its record and its analysis
    assert button_labels(final) == ["Rematch", "Record", "Analyse"]
    assert sum("your turn" in s for s in said) == 0  # nobody is left waiting to fly


async def test_the_board_says_the_turn_so_far_and_pings_only_the_player_to_move(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    intro = thread.history()[0].content
    assert "Seats: alice (P1) from the south edge and bob (P2) from the north edge." in intro
    await fly(table, simcord_bot, thread, GAME[:4])  # bob has flown one action of two
    board = board_message(thread)
    assert board.id == thread.history()[-1].id
    assert board.content.splitlines()[1:4] == [
        "Turn 3, alice (P1) (+a1NE) so far:",
        "- alice (P1) brings a plane on at a1, facing north-east, height 0 (+a1NE).",
        f"{table.alice.mention}, your turn — press **Play** or use `/crosshairs move`.",
    ]
    pings = [m.id for m in thread.history() if "your turn" in m.content]
    assert pings == [board.id]


async def test_the_record_is_the_whole_game_in_words_and_a_file_when_long(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    await fly(table, simcord_bot, thread, GAME[:6])
    live = next(iter(simcord_bot.games.live_matches()))
    short = answer(await table.eve.slash(thread, "crosshairs record"))
    assert short.ephemeral
    assert short.content == (
        "📜 Match #1: alice vs bob\n" + record_text(live.game, ["alice", "bob"])
    )

    longer = Table(simcord_env)
    thread = await longer.start(clouds="none")
    live = next(m for m in simcord_bot.games.live_matches() if m.id == 2)
    rng = random.Random(3)
    while len(record_text(live.game, live.names)) <= 2000:
        offered = [s.token for s in live.game.legal_steps()]
        legal = [t for t in offered if not t.endswith("X")] or offered
        await fly(longer, simcord_bot, thread, [rng.choice(legal)], live)
    assert not live.game.is_over
    long = answer(await longer.eve.click(board_message(thread), label="Record"))
    (attachment,) = long.attachments
    assert "as a file" in long.content
    assert (await attachment.read()).decode() == record_text(live.game, live.names)


async def test_a_draw_offer_names_the_opponent_and_is_answered_with_buttons(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    await fly_first_turns(table.member, thread, await match_in(simcord_bot, thread))
    await table.alice.click(board_message(thread), label="Offer draw")
    board = board_message(thread)
    assert (
        f"🤝 alice (P1) offers a draw to {table.bob.mention}: **Accept draw** or "
        "**Decline draw** below." in board.content
    )
    labels = button_labels(board)
    assert "Accept draw" in labels and "Decline draw" in labels and "Offer draw" not in labels
    refused = answer(await table.alice.click(board, label="Decline draw"))
    assert "your own offer" in refused.content
    await table.bob.click(board, label="Decline draw")
    board = board_message(thread)
    assert "offers a draw" not in board.content
    assert "Offer draw" in button_labels(board)

    await table.bob.click(board, label="Offer draw")
    own = answer(await table.bob.click(board_message(thread), label="Accept draw"))
    assert own.content == "⚠️ that is your own draw offer: only alice (P1) can accept it"
    await table.alice.click(board_message(thread), label="Accept draw")
    live = simcord_bot.games
    assert not live.live_matches()
    assert "The game is drawn" in board_message(thread).content
    (told,) = [m.content for m in thread.history() if "agree to a draw" in m.content]
    assert "The players agree to a draw." in told and "draw.." not in told


async def test_a_used_resignation_confirmation_is_disabled(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    await fly_first_turns(table.member, thread, await match_in(simcord_bot, thread))
    asked = answer(await table.bob.click(board_message(thread), label="Resign"))
    await table.bob.click(asked.message, label="Yes, resign")
    confirmation = asked.message
    assert "You resigned" in confirmation.content
    (button,) = [c for row in confirmation.components for c in row.children]
    assert button.label == "Yes, resign" and button.disabled
    assert "alice (P1) wins (bob (P2) resigned)." in board_message(thread).content


async def test_the_challenge_names_its_settings_the_invited_opponent_and_home_sides(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    plain = await table.challenge()
    assert plain.content.splitlines()[1:] == [
        "**Duel** · 2026 rules · auto fire · 5 planes each · random clouds",
        "`P1` alice · home side south",
        "`P2` bob (invited) · home side north",
    ]
    other = Table(simcord_env)
    invite = await other.challenge(
        planes=3, clouds="none", fire="manual", variants="aces", clock=300, claim=True
    )
    assert invite.content.splitlines()[1] == (
        "**Duel** · 2026 rules · manual fire · 3 planes each · variants: aces · no clouds · "
        "5 min a turn · on time out the opponent may claim"
    )


async def test_a_clock_reminder_moves_the_board_down_and_keeps_one_ping(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", clock=300)
    clock.advance(240)  # the reminder comes in the last fifth of the turn
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 21)
    board = board_message(thread)
    assert "⏰ Your turn is running out." in board.content
    assert board.id == thread.history()[-1].id
    assert [m.id for m in thread.history() if "your turn" in m.content] == [board.id]


async def test_a_clock_reminder_speaks_the_servers_language(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", clock=300)
    guild = simcord_bot.get_guild(table.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    clock.advance(240)
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 21)
    board = board_message(thread)
    assert "⏰ Deine Zeit für diesen Zug läuft bald ab." in board.content, board.content


async def test_the_cockpit_draws_a_preview_once_per_highlight(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: Any
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    await fly(table, simcord_bot, thread, GAME[:3])  # alice has a plane at a6 now
    drawn: list[object] = []

    def counting(game: Any, **options: Any) -> bytes:
        drawn.append(options.get("highlight_cells"))
        return board_png(game, **options)

    monkeypatch.setattr(jobs, "board_png", counting)
    cockpit = answer(await table.alice.click(board_message(thread), label="Play"))
    plane = next(
        c.label
        for row in cockpit.message.components
        for c in row.children
        if "a6" in (getattr(c, "label", None) or "")
    )
    for _ in range(2):  # the plane's end poses, back, and the same again
        await table.alice.click(cockpit.message, label=plane)
        await table.alice.click(cockpit.message, label="Back")
    assert len(drawn) == 2  # the start and the plane's end poses, each drawn once


async def test_the_preview_letters_each_cell_as_the_menu_options_begin(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: Any
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    await fly(table, simcord_bot, thread, GAME[:3])  # alice has a plane at a6 now
    drawn: list[dict[int, str]] = []

    def spying(game: Any, **options: Any) -> bytes:
        drawn.append(dict(options.get("highlight_labels", {})))
        return board_png(game, **options)

    monkeypatch.setattr(jobs, "board_png", spying)
    cockpit = answer(await table.alice.click(board_message(thread), label="Play"))
    plane = next(
        c.label
        for row in cockpit.message.components
        for c in row.children
        if "a6" in (getattr(c, "label", None) or "")
    )
    await table.alice.click(cockpit.message, label=plane)
    options = [
        o.label
        for row in cockpit.message.components
        for c in row.children
        if isinstance(c, discord.SelectMenu)
        for o in c.options
    ]
    assert options
    offered: dict[int, str] = {}
    for option in options:  # "B · f6 ↗ h1 · climb to …": the letter, then the end pose
        letter, pose = option.split(" · ")[:2]
        offered.setdefault(board.cell(pose.split()[0]), letter)
        assert offered[board.cell(pose.split()[0])] == letter  # one letter per cell
    assert drawn[-1] == offered  # the preview letters exactly the cells the menu offers
    assert len(set(offered.values())) == len(offered)


async def test_each_move_tells_the_game_in_words_once(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: Any
) -> None:
    """The move's sentences, the board's turn so far, the finished turn and the picture's
    alt text all read one telling of the new state: the game is replayed once per move."""
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    replays: list[int] = []

    def counting(game: Any, names: Any = ()) -> Any:
        replays.append(len(game.history))
        return telling.tell(game, names)

    monkeypatch.setattr(live_module, "tell", counting)
    p1 = insignia(simcord_bot, "xh_orange_circle")
    await fly(table, simcord_bot, thread, GAME[:6])  # turn 3 ends: told, and a new board
    assert replays == [1, 2, 3, 4, 5, 6]  # one telling per state reached, none repeated
    assert any(
        m.content.startswith(f"{p1}Turn 3, alice (P1) (+a1NE a6F +a4SE):") for m in thread.history()
    )
