"""No translation breaks Discord's limits where it is shown: the cockpit's buttons and
menus at every stage of played games, the board's and the tables' buttons, the
tournaments' buttons, sign-up message and picture headings, and the game's words with
the longest names Discord allows, in every shipped language."""

from __future__ import annotations

import random
from collections.abc import Iterator

import discord
import pytest

from bot.services import cockpit
from bot.services.live import ClockSettings, Occupant
from bot.services.tournaments.plan import TournamentPlan
from bot.ui.board import LABELS
from bot.ui.invites import Table, lobby_view
from bot.ui.options import game_settings_words
from bot.ui.text import NAME
from bot.ui.tournaments.desk import TIEBREAK_LABELS
from bot.ui.tournaments.registration import registration_view, sign_up_lines
from bot.ui.tournaments.teams import invitation_view
from i18n import LANGUAGES, _, speaking
from render.tournament import BOX_W, NUMBER_COLUMN, SIDE_TITLES
from render.typeface import font
from rules.game import Game
from rules.modes import Settings
from rules.words.common import turn_line
from rules.words.scene import alt_text, position_text
from rules.words.telling import record_text
from storage.tournaments import Tournament, TournamentStatus

BUTTON = 80  # characters of a button's label
OPTION = 100  # a select option's label and description
PLACEHOLDER = 150  # a select menu's placeholder
MESSAGE = 2000
NAMES = ["W" * 32] * 6  # Discord's longest display names


def games() -> Iterator[Game]:
    """States of a duel and a six-player free-for-all, played at random, in manual fire
    (which offers the most choices)."""
    for mode, seed in (("duel", 1), ("ffa6", 2)):
        rng = random.Random(seed)
        game = Game(Settings(mode=mode, fire="manual"))
        for ply in range(400):
            if game.is_over:
                break
            if ply % 7 == 0:
                yield game.copy()
            legal = [s for s in game.legal_steps() if s.kind != "X"] or game.legal_steps()
            game.play(rng.choice(legal))
        yield game


def stages(game: Game) -> Iterator[cockpit.Panel]:
    """Every stage of the cockpit one press away from its start, and one more."""
    start = cockpit.panel(game)
    yield start
    paths = [c.path for c in start.choices if c.token is None]
    paths += [
        tuple(o.value[len(cockpit.GO) :].split("/"))
        for m in start.menus
        for o in m.options
        if o.value.startswith(cockpit.GO)
    ]
    for path in paths[:12]:
        stage = cockpit.panel(game, path)
        yield stage
        for choice in stage.choices[:6]:
            if choice.token is None:
                yield cockpit.panel(game, choice.path)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_cockpit_fits_discord_in_every_language(lang: str) -> None:
    seen = 0
    with speaking(lang):
        for game in games():
            for stage in stages(game):
                seen += 1
                assert len(stage.title) <= MESSAGE
                for choice in stage.choices:
                    assert 0 < len(choice.label) <= BUTTON, choice.label
                for menu in stage.menus:
                    assert len(menu.placeholder) <= PLACEHOLDER, menu.placeholder
                    for option in menu.options:
                        assert 0 < len(option.label) <= OPTION, option.label
                        assert len(option.description) <= OPTION, option.description
    assert seen > 50


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_board_and_table_buttons_fit_discord_in_every_language(lang: str) -> None:
    with speaking(lang):
        assert all(0 < len(_(label)) <= BUTTON for label, _style, _emoji in LABELS.values())
        settings = Settings(mode="ffa6", variants=frozenset({"turbulence"}))
        host = Occupant(1, "W" * 32)
        table = Table(
            1, host, settings, "random", ClockSettings(86400.0), 2, 3, [host, *[None] * 5]
        )
        for item in lobby_view(table).children:
            assert isinstance(item, discord.ui.DynamicItem)
            label = item.item.label or ""
            assert 0 < len(label) <= BUTTON, label
        assert len(table.describe()) <= MESSAGE
        assert all(words for words in game_settings_words(settings, "manual"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_in_words_fits_a_message_with_the_longest_names(lang: str) -> None:
    with speaking(lang):
        for game in games():
            assert len(turn_line(game, NAMES)) <= MESSAGE
            assert len(alt_text(game, NAMES)) <= 1024
            assert position_text(game, NAMES)  # sent in pieces (bot/ui/words.py)
        assert record_text(game, NAMES)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_tournament_buttons_and_sign_up_fit_discord_in_every_language(
    lang: str,
) -> None:
    with speaking(lang):
        views = [registration_view(1), invitation_view(1, 2)]
        items = [item for view in views for item in view.children]
        labels = [i.item.label or "" for i in items if isinstance(i, discord.ui.DynamicItem)]
        assert len(labels) == 7 and all(0 < len(label) <= BUTTON for label in labels), labels
        # the longest sign-up: a timed, checked-in team event with every setting shown
        plan = TournamentPlan(
            organiser=1, check_in=True, start_at=1.0, round_minutes=1440, no_show_minutes=60
        )
        for format in ("swiss", "single", "arena", "double-round-robin"):
            event = Tournament(
                id=1,
                guild_id=1,
                channel_id=1,
                name="W" * NAME,
                format=format,
                mode="3v3",
                settings_json=plan.to_json(),
                games_per_pairing=7,
                status=TournamentStatus.OPEN,
                created_at=0.0,
                updated_at=0.0,
            )
            shown = "\n".join(sign_up_lines(event, plan, Settings(mode="3v3")))
            assert len(shown) <= MESSAGE // 2, shown  # half is left for who entered


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tournament_pictures_headings_fit_their_columns(lang: str) -> None:
    with speaking(lang):
        heads = [_("Score"), *(_(label) for label in TIEBREAK_LABELS.values())]
        for head in heads:
            assert font(14, bold=True).getlength(head) <= NUMBER_COLUMN - 10, head
        for title in SIDE_TITLES.values():
            assert font(18, bold=True).getlength(_(title)) <= BOX_W * 2, title
