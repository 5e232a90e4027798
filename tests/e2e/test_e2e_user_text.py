"""The bot's own check on people's free text, end to end: localcord, unlike Discord's
client, lets 6,000 characters through, and the bot still refuses them kindly, in one
short message, storing nothing; a tournament called ``@everyone @here cup`` is announced
without pinging anyone."""

from __future__ import annotations

from typing import Any

from e2e.conftest import Local
from localcord.client import reply

LONG = "x" * 6000


async def test_six_thousand_characters_are_refused_by_the_bot_itself(local: Local) -> None:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice", moderator=True), people.join("bob")  # alice organises
    refused = await people.slash(
        alice, channel, "crosshairs challenge", opponent=bob, variants=LONG
    )
    assert reply(refused) == "⚠️ variants is too long: at most 200 characters, please"
    too_long: list[dict[str, Any]] = [{"name": LONG}, {"name": "Cup", "tiebreaks": LONG}]
    for options in too_long:
        refused = await people.slash(
            alice, channel, "crosshairs-tournament create", format="swiss", rounds=3, **options
        )
        assert "too long: at most" in reply(refused) and len(reply(refused)) < 100
    created = await people.slash(
        alice,
        channel,
        "crosshairs-tournament create",
        name="@everyone @here cup",
        format="swiss",
        rounds=3,
    )
    assert created.original is not None
    content = created.original.content
    assert "tournament #1" in content  # the refused ones stored nothing
    assert "cup" in content and "@everyone" not in content and "@here" not in content
    # the bot's default: users it names may be pinged, never everyone, here or roles
    assert created.original.allowed_mentions is not None
    assert created.original.allowed_mentions.get("parse") == ["users"]


async def test_a_long_puzzle_number_or_lesson_is_refused_without_its_echo(local: Local) -> None:
    people, channel = local.people, local.channel
    alice = people.join("alice")
    asked: list[tuple[str, dict[str, Any]]] = [
        ("crosshairs puzzle", {"number": LONG}),
        ("crosshairs learn", {"lesson": LONG}),
    ]
    for command, options in asked:
        said = reply(await people.slash(alice, channel, command, **options))
        assert "too long: at most 100 characters" in said and len(said) < 100, said
