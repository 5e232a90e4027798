"""The CPU-heavy jobs the bot hands to its worker processes (:mod:`bot.services.workers`).

Each job takes plain data — the game as its JSON snapshot, names, options — and returns
plain data (PNG bytes, tokens), so that it can cross into another interpreter and back
without dragging live objects (locks, the bot) along. Everything here is module-level,
which is what pickling a function for another process needs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

from i18n import speaking
from render.analysis import analysis_pngs
from render.board import board_png
from render.cards import card_png, cards_png
from render.rating_chart import rating_chart_png
from render.replay import replay_gif
from render.scoreboard import ScoreRow, scoreboard_png
from render.tournament import BracketBox, StandingRow, bracket_png, standings_png
from rules import notation, position, serialize
from rules.achievements import Card
from rules.ai.analysis import AnalysisDepth, TurnReview, review
from rules.ai.player import ComputerPlayer
from rules.errors import RulesError
from rules.game import Game
from rules.modes import Settings
from rules.steps import CLOUD, PLACE, Step


def game_of(snapshot: str) -> Game:
    return serialize.from_dict(json.loads(snapshot))


def snapshot_of(game: Game) -> str:
    return json.dumps(serialize.to_dict(game), separators=(",", ":"))


def draw_board(
    snapshot: str,
    names: Sequence[str],
    *,
    lines: bool = False,
    highlight_cells: Collection[int] = (),
    highlight_plane: int | None = None,
    highlight_labels: Mapping[int, str] | None = None,
    size: int = 1024,
    language: str = "en",
    theme: str = "dark",
) -> bytes:
    """The board as a PNG, its words (title, seat cards) in ``language``: a worker
    process speaks what the caller was speaking; drawn in ``theme`` (render/palette.py)."""
    with speaking(language):
        return board_png(
            game_of(snapshot),
            names=list(names),
            lines=lines,
            highlight_cells=tuple(highlight_cells),
            highlight_plane=highlight_plane,
            highlight_labels=dict(highlight_labels or {}),
            size=size,
            theme=theme,
        )


def draw_position(text: str, fire: str, size: int, lines: bool, language: str = "en") -> bytes:
    """A board from position text (the rules pages' diagrams), its words in ``language``."""
    with speaking(language):
        return board_png(position.parse(text, fire=fire), size=size, lines=lines)


def draw_replay(snapshot: str, names: Sequence[str], language: str = "en") -> bytes:
    with speaking(language):
        return replay_gif(game_of(snapshot), names=list(names))


def draw_standings(
    rows: Sequence[StandingRow], title: str, columns: Sequence[str], language: str = "en"
) -> bytes:
    """A tournament's standings table, its headings in ``language``."""
    with speaking(language):
        return standings_png(rows, title, columns=columns)


def draw_bracket(boxes: Sequence[BracketBox], title: str, language: str = "en") -> bytes:
    """An elimination bracket, its band titles in ``language``."""
    with speaking(language):
        return bracket_png(boxes, title)


def draw_card(card: Card, claimed_by: str, language: str) -> bytes:
    """One achievement card with the ribbon of who just claimed it, in ``language``."""
    with speaking(language):
        return card_png(card, claimed_by=claimed_by)


# Every game of a series opens with the sheet of its cards in play, and a tournament's
# round opens hundreds of tables with the same few sheets (a tenth of a second each):
# each is drawn once per worker. 32 sheets of about 50 KB.
@lru_cache(maxsize=32)
def draw_cards(cards: tuple[Card, ...], title: str, language: str) -> bytes:
    """A sheet of achievement cards under ``title``, in ``language``."""
    with speaking(language):
        return cards_png(cards, title=title)


def draw_scoreboard(
    title: str, rows: Sequence[ScoreRow], subtitle: str, pool: Sequence[str], language: str
) -> bytes:
    """A series scoreboard, its headings and card names in ``language``."""
    with speaking(language):
        return scoreboard_png(title, rows, subtitle=subtitle, pool=pool)


def draw_rating_chart(
    title: str, lines: Sequence[tuple[str, Sequence[int]]], language: str, theme: str
) -> bytes:
    """A player's rating history (render.rating_chart), its words in ``language``."""
    with speaking(language):
        return rating_chart_png(title, lines, theme)


def analyse_turn(snapshot: str, index: int, depth: AnalysisDepth) -> TurnReview | None:
    """The post-game analysis of one player-turn (the ``index``-th of those
    :func:`rules.ai.analysis.turn_count` counts; None for one it does not judge)."""
    return next(review(game_of(snapshot), depth, only=index), None)


def draw_analysis(
    snapshot: str,
    reviews: Sequence[TurnReview],
    names: Sequence[str],
    language: str = "en",
    theme: str = "dark",
) -> list[bytes]:
    """The analysis graph, then one picture per blunder shown (render.analysis), their
    words in ``language``, drawn in ``theme``."""
    with speaking(language):
        return analysis_pngs(game_of(snapshot), reviews, names=list(names), theme=theme)


def computer_turn(snapshot: str, strength: str, seed: int) -> list[list[str]]:
    """The computer's whole player-turn from this position, as its plane actions (each
    a list of tokens, with the shots that follow it). One search plans the turn; the
    caller plays the actions one at a time, pausing between them."""
    game = game_of(snapshot)
    seat = game.to_move
    player = ComputerPlayer(strength, seed=seed)
    actions: list[list[str]] = []
    while not game.is_over and game.to_move == seat:
        step = player.choose(game.copy(with_history=False))
        if not actions or starts_action(game, step):
            actions.append([])
        game.play(step)
        actions[-1].append(step.token)
    return actions


def starts_action(game: Game, step: Step) -> bool:
    """Whether ``step`` begins a new plane action (rather than continuing a dive or
    shooting), which is where the computer pauses between actions."""
    if step.kind in (PLACE, CLOUD):
        return True
    if not step.is_manoeuvre:
        return False
    diver = game.plane(game.diving) if game.diving >= 0 else None
    return not (step.is_dive and diver is not None and diver.cell == step.cell)


def legal_tokens(snapshot: str, done: Sequence[str]) -> tuple[str, ...] | None:
    """The legal next tokens after playing ``done`` from this position; None when
    ``done`` itself cannot be played."""
    game = game_of(snapshot)
    try:
        notation.play_tokens(game, list(done))
    except RulesError:
        return None
    return tuple(s.token for s in game.legal_steps())


def start_worker(niceness: int, sizes: Sequence[int]) -> None:
    """Each worker's start: run ``niceness`` below the bot's own priority (when the
    machine is busy, the event loop — heartbeats, first answers — gets the CPU first and
    a board waits a little), and load the engine, the renderer and their fonts, and draw
    a board at each of ``sizes`` (a size's first board builds what the next ones reuse:
    0.7 s at 1,024 px, then 10 ms), so that no player waits on a cold worker."""
    os.nice(niceness)
    for size in sizes or (256,):
        board_png(Game(Settings("duel")), size=size)


def ready() -> int:
    return os.getpid()
