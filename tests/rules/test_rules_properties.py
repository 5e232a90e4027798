"""Properties of random legal games in every mode, ruleset, fire mode and variant mix."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from rules_support import of_type

from rules import events, notation, position, serialize
from rules.achievements import ALL_CARDS
from rules.errors import IllegalStep
from rules.game import Game
from rules.modes import MODES, Settings
from rules.players import new_game
from rules.steps import ALL_STEPS
from rules.variants import VARIANTS

pytestmark = pytest.mark.slow  # seconds each: see tests/support/order.py

game_settings = st.builds(
    Settings,
    mode=st.sampled_from(sorted(MODES)),
    ruleset=st.sampled_from(["2026", "classic"]),
    fire=st.sampled_from(["auto", "manual"]),
    variants=st.frozensets(st.sampled_from([v.name for v in VARIANTS])),
    turn_limit=st.just(300),
    cards=st.just(ALL_CARDS),
)


def check_invariants(game: Game) -> None:
    seen: set[int] = set()
    for p in game.planes():
        assert p.cell not in seen, "two planes in one cell"
        seen.add(p.cell)
        assert game.plane_at(p.cell) == p
        assert 0 <= p.height <= 6
    for seat in range(game.seats):
        state = game.seat(seat)
        if state.out:
            assert game.planes_left(seat) == 0
        else:
            assert game.planes_left(seat) >= 2
    if game.settings.rules.rings:
        for seat in range(game.seats):
            assert game.seat(seat).rings >= 0


def all_events(game: Game) -> list[events.Event]:
    return [*game.opening, *(e for p in game.history for e in p.events)]


def check_plane_counts(game: Game) -> None:
    """Planes on the board, in reserve and lost add up to the planes each seat began with."""
    happened = all_events(game)
    lost: Counter[int] = Counter()
    for e in happened:
        if isinstance(e, events.ShotDown | events.Crashed) or (
            isinstance(e, events.Eliminated) and e.last_cell != -1
        ):
            lost[e.seat] += 1
    placed = Counter(e.seat for e in of_type(happened, events.Placed))
    for seat, start in enumerate(game.settings.plane_counts()):
        state = game.seat(seat)
        if state.out:
            continue
        on_board = len(game.planes(seat))
        assert on_board + lost[seat] == placed[seat]
        assert state.reserve + placed[seat] == start


def check_result(game: Game) -> None:
    assert game.result is not None
    winners = game.result.winners
    if game.mode.family.trophies and len(winners) > 1:
        assert "shared" in game.result.reason
    elif winners:
        assert len({game.mode.teams[s] for s in winners}) == 1
        assert game.result.reason != "turn limit"


def check_trophies(game: Game) -> None:
    if not game.mode.family.trophies:
        return
    happened = all_events(game)
    shots = len(of_type(happened, events.ShotDown))
    last_planes = sum(
        1 for e in of_type(happened, events.Eliminated) if e.cause == "shot" and e.last_cell != -1
    )
    reserve_last = sum(
        1 for e in of_type(happened, events.Eliminated) if e.cause == "shot" and e.last_cell == -1
    )
    assert (
        sum(game.seat(s).trophies for s in range(game.seats)) == shots + last_planes + reserve_last
    )


def check_cards(game: Game) -> None:
    claimed = [e.card for e in of_type(all_events(game), events.CardClaimed)]
    assert len(claimed) == len(set(claimed)), "a card was claimed twice"


def check_round_trips(game: Game) -> None:
    again = serialize.loads(serialize.dumps(game))
    assert again.state_key() == game.state_key()
    resigned = any(":" in p.token for p in game.history)
    if game.start_position is None and not resigned:
        # The record in notation, played on a fresh game from the same start, rebuilds it.
        fresh = Game(game.settings, game.clouds)
        words = [w for _, _, line in notation.turn_texts(game) for w in line.split()]
        notation.play_tokens(fresh, words)
        assert fresh.state_key() == game.state_key()
    if game.at_turn_start and game.planes():
        text = position.format_position(game)
        assert position.format_position(position.parse(text, fire=game.settings.fire)) == text


def check_refusals(game: Game, rng: random.Random) -> None:
    legal = set(game.legal_steps())
    before = game.state_key()
    for step in rng.sample(ALL_STEPS, 40):
        if step in legal:
            continue
        try:
            game.push(step)
        except IllegalStep as exc:
            assert exc.why
        else:
            raise AssertionError(f"{step} was accepted but not listed")
        assert game.state_key() == before
    for step in legal:
        game.push(step)
        game.pop()
        assert game.state_key() == before


@settings(max_examples=200, deadline=None)
@given(chosen=game_settings, seed=st.integers(0, 2**31))
def test_random_games_keep_every_invariant(chosen: Settings, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(chosen, seed)
    while not game.is_over:
        check_invariants(game)
        if rng.random() < 0.1:
            check_refusals(game, rng)
        if rng.random() < 0.002:
            game.concede(game.active)
            continue
        game.push(rng.choice(game.legal_steps()))
    check_invariants(game)
    check_plane_counts(game)
    check_result(game)
    check_trophies(game)
    check_cards(game)
    check_round_trips(game)


@settings(max_examples=50, deadline=None)
@given(chosen=game_settings, seed=st.integers(0, 2**31), cut=st.integers(0, 400))
def test_undo_takes_every_step_back(chosen: Settings, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    game = new_game(chosen, seed)
    keys = [game.state_key()]
    while not game.is_over and len(keys) <= cut:
        game.push(rng.choice(game.legal_steps()))
        keys.append(game.state_key())
    mid = serialize.dumps(game)
    while len(keys) > 1:
        keys.pop()
        game.pop()
        assert game.state_key() == keys[-1]
    assert serialize.loads(mid).state_key() is not None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), mode=st.sampled_from(sorted(MODES)))
def test_position_text_round_trips_at_every_turn_start(seed: int, mode: str) -> None:
    rng = random.Random(seed)
    game = new_game(Settings(mode=mode, fire="manual", turn_limit=200), seed)
    while not game.is_over:
        if game.at_turn_start:
            text = position.format_position(game)
            again = position.parse(text, fire="manual")
            assert position.format_position(again) == text
            assert {s.token for s in again.legal_steps()} == {s.token for s in game.legal_steps()}
        game.play(rng.choice(game.legal_steps()))


Board = tuple[object, ...]


def turn_ends(game: Game, budget: list[int]) -> set[Board]:
    """Every board ``game``'s player-turn can end on, by depth-first search over its
    legal steps (push/pop). In manual fire the next seat's opening shots are then fired
    in board order, as automatic fire does when the turn passes, so that boards of the
    two fire modes compare. ``budget`` counts the positions left to visit; the search
    stops when it reaches 0, and the caller discards the example."""
    turn = game.turn
    ends: set[Board] = set()
    seen: set[Board] = set()

    def visit() -> None:
        budget[0] -= 1
        if budget[0] < 0:
            return
        for step in game.legal_steps():
            game.push(step)
            if game.is_over or game.turn != turn:
                ends.add(_after_opening_shots(game))
            else:
                key = game.state_key()[1:]
                if key not in seen:
                    seen.add(key)
                    visit()
            game.pop()

    visit()
    return ends


def _after_opening_shots(game: Game) -> Board:
    pushed = 0
    while not game.is_over and game.settings.fire == "manual":
        shots = [s for s in game.legal_steps() if s.kind == "*"]
        if not shots:
            break
        game.push(shots[0])
        pushed += 1
    board = game.state_key()[1:]  # the settings name the fire mode: leave them out
    for _ in range(pushed):
        game.pop()
    return board


@settings(max_examples=40, deadline=None)
@given(chosen=game_settings, seed=st.integers(0, 2**31), cut=st.integers(0, 40))
@example(chosen=Settings(), seed=0, cut=-1)  # cut -1: the position of issue 13
def test_manual_fire_reaches_every_turn_end_automatic_fire_reaches(
    chosen: Settings, seed: int, cut: int
) -> None:
    if cut < 0:
        text = "duel/2026 t9 - | - | >b3NE2 a5NW0 +0 | c5W0 k7W0 k8W0 +0"
    else:
        rng = random.Random(seed)
        game = new_game(replace(chosen, fire="manual", cards=()), seed)
        for _ in range(cut):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_steps()))
        while not game.is_over and not (game.at_turn_start and game.planes()):
            game.play(rng.choice(game.legal_steps()))
        assume(not game.is_over)
        text = position.format_position(game)
    extra = {"turn_limit": chosen.turn_limit}
    budget = [300]
    auto = turn_ends(position.parse(text, fire="auto", **extra), budget)
    manual = turn_ends(position.parse(text, fire="manual", **extra), budget)
    assume(budget[0] >= 0)
    assert auto <= manual, text
