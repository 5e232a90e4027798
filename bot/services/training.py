"""Learn and puzzles without Discord: open a lesson or a puzzle for a person, play their
presses into it, and judge the turn when it is done.

An exercise is one player-turn of the seat to move, played from the lesson's or the
puzzle's position; its steps so far live in storage (:mod:`storage.training`), and the
game is rebuilt from them on every press, so memory never differs from storage. A lesson
is judged by its conditions (:mod:`rules.training.lessons`): a wrong try is explained and
the lesson starts again. A puzzle is judged by playing the round of replies after the
try (:func:`rules.training.puzzles.judge`, in a worker process). A missed puzzle stays
open for another try; the person's Glicko-2 puzzle rating and streak count the first try
only, and move once, when the puzzle ends: solved (on any try), its solution shown, or
another exercise opened. A puzzle tried before is practice.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.services import puzzle_choice
from bot.services.refusal import Refusal
from bot.services.stores import Stores
from bot.services.workers import Workers
from competition.puzzle_rating import Glicko, rate
from i18n import _
from rules import notation, position
from rules.ai.analysis import PLANE, AnalysisDepth
from rules.ai.deep import play_round
from rules.ai.evaluate import Evaluator
from rules.ai.search import Deadline
from rules.ai.strengths import TUNED_WEIGHTS
from rules.errors import RulesError
from rules.events import Event
from rules.game import Game
from rules.notation import play_tokens
from rules.training import lessons, puzzles, shipped
from rules.training.lessons import Lesson
from rules.training.puzzles import NO_CLOCK, Puzzle
from storage.training import DAILY_CHANNEL, DAILY_POSTED, PuzzleRating, Run

# A try at a blunder of one's own game finds the better turn when it comes within this
# many planes of it (the analysis calls a smaller loss than 0.3 no inaccuracy at all).
BLUNDER_SLACK = 0.3
BLUNDER_SEP = "#"  # the item of a blunder: position text, better turn, turn played


def judge_puzzle(position_text: str, tokens: Sequence[str]) -> int:
    """The outcome of a try at a puzzle (a worker job: plain data in and out)."""
    game = position.parse(position_text)
    work = game.copy()
    plan = tuple(step for step, _seen in play_tokens(work, tokens))
    return puzzles.judge(game, plan).outcome


def judge_blunder(
    position_text: str, tokens: Sequence[str], better: Sequence[str], reply_width: int
) -> bool:
    """Whether a try at one of the person's own blunders is as good as the better turn
    the analysis found, judged as the analysis judges (a worker job)."""
    game = position.parse(position_text)
    ev = Evaluator(game, TUNED_WEIGHTS)
    values = []
    for line in (tokens, better):
        work = game.copy()
        plan = tuple(step for step, _seen in play_tokens(work, line))
        scratch = game.copy(with_history=False)
        played = play_round(scratch, game.active, plan, ev, reply_width, Deadline(NO_CLOCK))
        values.append(played[0].score if played else ev.score(work, game.active))
    return values[0] >= values[1] - BLUNDER_SLACK * PLANE


def daily_puzzle(day: datetime.date) -> Puzzle:
    """The puzzle of the day: the same everywhere on a given date."""
    found = shipped.puzzle_set()
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    return found[int.from_bytes(digest[:8], "big") % len(found)]


@dataclass(frozen=True)
class Exercise:
    """A person's open lesson or puzzle, standing after the steps played so far."""

    run: Run
    start: Game
    game: Game
    happened: tuple[Event, ...]
    lesson: Lesson | None = None
    puzzle: Puzzle | None = None
    better: tuple[str, ...] = ()  # a blunder's better turn
    played: str = ""  # a blunder: the turn played in the game

    @property
    def stamp(self) -> str:
        """Which state a button was drawn for: the item, the tries and the steps."""
        item = hashlib.sha256(self.run.item.encode()).hexdigest()[:10]
        return f"{item}~{self.run.tries}~{len(self.run.tokens)}"

    @property
    def seat(self) -> int:
        return self.start.active

    @property
    def names(self) -> list[str]:
        """How the board names the seats: you, a partner, the rivals (in the language
        being spoken)."""
        game = self.start
        rivals = [s for s in range(game.seats) if game.hostile(self.seat, s)]
        partners = [s for s in range(game.seats) if s != self.seat and s not in rivals]
        names = []
        for s in range(game.seats):
            if s == self.seat:
                names.append(_("You"))
            elif s in partners:
                names.append(
                    _("Partner")
                    if len(partners) == 1
                    else _("Partner {n}", n=partners.index(s) + 1)
                )
            else:
                names.append(
                    _("Rival") if len(rivals) == 1 else _("Rival {n}", n=rivals.index(s) + 1)
                )
        return names

    @property
    def title(self) -> str:
        if self.lesson is not None:
            number = [x.id for x in shipped.course()].index(self.lesson.id) + 1
            return _("Lesson {n}: {title}", n=number, title=_(self.lesson.title))
        if self.puzzle is None:
            return _("Your blunder of player-turn {n}: find the better turn", n=self.start.turn)
        title = _("Puzzle {id} · rated {rating}", id=self.puzzle.id, rating=self.puzzle.rating)
        if self.run.tries:  # a retry: the first try, missed, is what the rating counts
            return title + " · " + _("try {n}", n=self.run.tries + 1)
        return title

    @property
    def goal(self) -> str:
        if self.lesson is not None:
            return _(self.lesson.goal)
        mover = self.start.mode.seat_label(self.seat)
        if self.puzzle is None:
            return _(
                "In your game you ({seat}) played {turn} here, and the analysis found a "
                "clearly better turn. Find it (or one as good).",
                seat=mover,
                turn=self.played,
            )
        return _(
            "{mode}: you fly {seat} against {rivals}. Find the turn that is clearly best: "
            "it wins material, saves it, or wins the game, and the replies cannot undo it.",
            seat=puzzle_choice.side(self.start, self.seat),
            mode=_(self.start.mode.title),
            rivals=puzzle_choice.rivals(self.start, self.seat),
        )


@dataclass(frozen=True)
class ExerciseVerdict:
    """What a finished try came to."""

    passed: bool
    reasons: tuple[str, ...]
    tried: Game  # the board the try left
    played: str  # the try in notation
    exercise: Exercise  # as it was judged
    next_lesson: Lesson | None = None
    rating: PuzzleRating | None = None
    rating_before: float | None = None
    rated: bool = False
    answer: str = ""
    retry: bool = False  # a missed puzzle, open for another try
    solution: Game | None = None  # the board after a puzzle's answer, once it is shown
    stamp: str = ""  # a missed puzzle: the stamp of its next try


@dataclass(frozen=True)
class Pressed:
    """After a press: the exercise still open, or the verdict on the finished turn."""

    exercise: Exercise | None
    verdict: ExerciseVerdict | None
    lines: tuple[str, ...] = ()


class Training:
    def __init__(
        self, stores: Stores, workers: Workers, analysis: AnalysisDepth | None = None
    ) -> None:
        self.repo = stores.training
        self.workers = workers  # judges puzzles and finds better turns
        self.analysis = analysis or AnalysisDepth()  # how blunders are judged
        self.settings = stores.guilds

    # ------------------------------------------------------------------ opening

    async def progress(self, user_id: int) -> dict[str, int]:
        return await self.repo.lessons_passed(user_id)

    async def open_lesson(self, user_id: int, lesson_id: str | None = None) -> Exercise:
        """Open ``lesson_id``, or the first lesson not passed yet (the first, when all are)."""
        course = shipped.course()
        if lesson_id is None:
            done = await self.repo.lessons_passed(user_id)
            chosen = next((x for x in course if x.id not in done), course[0])
        else:
            try:
                chosen = shipped.lesson(lesson_id)
            except RulesError:
                raise Refusal(
                    _(
                        "there is no lesson {name!r}; `/crosshairs learn` lists the lessons",
                        name=lesson_id,
                    )
                ) from None
        return self._exercise(await self._start(user_id, "lesson", chosen.id))

    async def open_puzzle(self, user_id: int, puzzle_id: str | None = None) -> Exercise:
        """Open ``puzzle_id``, or a puzzle near the person's rating they have not tried."""
        if puzzle_id is None:
            chosen = await self._at_level(user_id)
        else:
            try:
                chosen = shipped.puzzle(puzzle_id)
            except RulesError:
                raise Refusal(
                    _("there is no puzzle {name!r}; numbers look like 1-0042", name=puzzle_id)
                ) from None
        return self._exercise(await self._start(user_id, "puzzle", chosen.id))

    async def _at_level(self, user_id: int) -> Puzzle:
        await self._settle_open(user_id)
        rating = await self.repo.puzzle_rating(user_id)
        level = rating.rating if rating is not None else Glicko().rating
        tried = await self.repo.puzzles_tried(user_id)
        passed = await self.repo.lessons_passed(user_id)
        return puzzle_choice.pick(shipped.puzzle_set(), user_id, level, tried, passed)

    async def _start(self, user_id: int, kind: str, item: str) -> Run:
        """Open ``item`` in place of what the person had open; a missed puzzle left
        open counts as missed."""
        await self._settle_open(user_id)
        return await self.repo.start(user_id, kind, item)

    async def _settle_open(self, user_id: int) -> None:
        run = await self.repo.run(user_id)
        if run is not None and run.kind == "puzzle" and run.tries:
            await self._settle(run, shipped.puzzle(run.item), False)

    async def retry(self, user_id: int, item: str) -> Exercise:
        """The lesson or puzzle as the wrong try left it (its tries counted); a lesson
        afresh if the person has moved on to something else."""
        run = await self.repo.run(user_id)
        if run is not None and run.item == item and run.kind in ("lesson", "puzzle"):
            return await self.current(user_id)
        if any(x.id == item for x in shipped.course()):
            return await self.open_lesson(user_id, item)
        raise Refusal(
            _(
                "that puzzle is over; `/crosshairs puzzle number:{id}` opens it again",
                id=item,
            )
        )

    async def current(self, user_id: int, stamp: str | None = None) -> Exercise:
        """The person's open exercise; with ``stamp``, only if it still stands there."""
        run = await self.repo.run(user_id)
        if run is None:
            raise Refusal(
                _(
                    "you have no lesson or puzzle open: start one with `/crosshairs learn` "
                    "or `/crosshairs puzzle`"
                )
            )
        found = self._exercise(run)
        if stamp is not None and stamp != found.stamp:
            raise Refusal(_("that board is out of date — use the newest one"))
        return found

    def _exercise(self, run: Run) -> Exercise:
        lesson = puzzle = None
        better: tuple[str, ...] = ()
        played = ""
        try:
            if run.kind == "lesson":
                lesson = shipped.lesson(run.item)
                start = lesson.start()
            elif run.kind == "blunder":
                text, better_text, played = run.item.split(BLUNDER_SEP)
                better = tuple(better_text.split())
                start = position.parse(text)
            else:
                puzzle = shipped.puzzle(run.item)
                start = position.parse(puzzle.position)
        except (RulesError, ValueError) as exc:
            raise Refusal(
                _("that exercise is no longer offered ({why}); start another", why=exc)
            ) from None
        game = start.copy()
        happened: list[Event] = []
        for _step, seen in play_tokens(game, run.tokens):
            happened.extend(seen)
        return Exercise(run, start, game, tuple(happened), lesson, puzzle, better, played)

    # ------------------------------------------------------------------ playing

    async def play(self, user_id: int, stamp: str, tokens: Sequence[str]) -> Pressed:
        """Play ``tokens`` into the person's exercise (which must stand at ``stamp``)."""
        exercise = await self.current(user_id, stamp)
        work = exercise.game.copy()
        try:
            applied = play_tokens(work, tokens)
        except RulesError as exc:
            raise Refusal(str(exc)) from None
        if not applied:
            raise Refusal(_("choose one of the cockpit's entries"))
        done = [*exercise.run.tokens, *(s.token for s, _seen in applied)]
        happened = [*exercise.happened, *(e for _step, seen in applied for e in seen)]
        lines = tuple(_words([s.token for s, _seen in applied]))
        if not lessons.turn_over(work, exercise.seat):
            run = await self.repo.advance(exercise.run, done)
            if run is None:
                raise Refusal(_("that board is out of date — use the newest one"))
            return Pressed(self._exercise(run), None, lines)
        if exercise.lesson is not None:
            verdict = await self._judge_lesson(exercise, work, happened, done)
        elif exercise.puzzle is None:
            verdict = await self._judge_blunder(exercise, work, done)
        else:
            verdict = await self._judge_puzzle(exercise, work, done)
        return Pressed(None, verdict, lines)

    async def _judge_lesson(
        self, exercise: Exercise, tried: Game, happened: list[Event], done: list[str]
    ) -> ExerciseVerdict:
        lesson = exercise.lesson
        assert lesson is not None
        result = lessons.check(exercise.start, tried, happened, lesson.check)
        played = _turn_text(exercise.start, done)
        if result.passed:
            await self.repo.pass_lesson(exercise.run)
            course = shipped.course()
            passed = await self.repo.lessons_passed(exercise.run.user_id)
            after = course[course.index(lesson) + 1 :] + course
            nxt = next((x for x in after if x.id not in passed), None)
            return ExerciseVerdict(True, (), tried, played, exercise, next_lesson=nxt)
        if await self.repo.advance(exercise.run, (), wrong_try=True) is None:
            raise Refusal(_("that board is out of date — use the newest one"))
        return ExerciseVerdict(False, result.reasons, tried, played, exercise)

    async def _judge_puzzle(
        self, exercise: Exercise, tried: Game, done: list[str]
    ) -> ExerciseVerdict:
        puzzle = exercise.puzzle
        assert puzzle is not None
        outcome = await self.workers.run(judge_puzzle, puzzle.position, done)
        played = _turn_text(exercise.start, done)
        if outcome < puzzle.best:
            run = await self.repo.advance(exercise.run, (), wrong_try=True)
            if run is None:
                raise Refusal(_("that board is out of date — use the newest one"))
            why = puzzle_choice.why_not(exercise.start, puzzle, outcome)
            again = self._exercise(run).stamp
            return ExerciseVerdict(False, (why,), tried, played, exercise, retry=True, stamp=again)
        rating, before, rated = await self._settle(exercise.run, puzzle, not exercise.run.tries)
        return ExerciseVerdict(
            True,
            (),
            tried,
            played,
            exercise,
            rating=rating,
            rating_before=before,
            rated=rated,
            answer=puzzle.answer,
        )

    async def show_solution(self, user_id: int, stamp: str) -> ExerciseVerdict:
        """The open puzzle's solution, on its board; the puzzle ends, missed."""
        exercise = await self.current(user_id, stamp)
        puzzle = exercise.puzzle
        if puzzle is None:
            raise Refusal(_("only a puzzle has a solution to show"))
        rating, before, rated = await self._settle(exercise.run, puzzle, False)
        shown = puzzle_choice.solution(exercise.start, puzzle.answer)
        answer = _turn_text(exercise.start, puzzle.answer.split())
        return ExerciseVerdict(
            False,
            (puzzle_choice.what_it_keeps(exercise.start, puzzle),),
            shown,
            answer,
            exercise,
            rating=rating,
            rating_before=before,
            rated=rated,
            answer=answer,
            solution=shown,
        )

    async def _settle(
        self, run: Run, puzzle: Puzzle, solved: bool
    ) -> tuple[PuzzleRating | None, float | None, bool]:
        """End the puzzle, its first try ``solved`` or not: the rating moves (once: only
        for a puzzle not tried before). The rating after, the one before, and whether
        it moved."""
        user_id = run.user_id
        first = puzzle.id not in await self.repo.puzzles_tried(user_id)
        before = await self.repo.puzzle_rating(user_id)
        rating = None
        if first:
            start = before or PuzzleRating(user_id, 1500.0, 350.0, 0.06, 0, 0, 0, 0)
            new = rate(
                Glicko(start.rating, start.deviation, start.volatility), puzzle.rating, solved
            )
            streak = start.streak + 1 if solved else 0
            rating = PuzzleRating(
                user_id,
                new.rating,
                new.deviation,
                new.volatility,
                start.solved + int(solved),
                start.failed + int(not solved),
                streak,
                max(start.best_streak, streak),
            )
        await self.repo.record_puzzle(run, solved, rating)
        return rating or before, before.rating if before else None, first

    async def open_blunder(
        self, user_id: int, start: Game, better: Sequence[str], played: str
    ) -> Exercise:
        """Open a blunder of the person's own game: the position before it (at a turn's
        start), the better turn the analysis found and the turn they played."""
        item = BLUNDER_SEP.join((position.format_position(start), " ".join(better), played))
        return self._exercise(await self._start(user_id, "blunder", item))

    async def _judge_blunder(
        self, exercise: Exercise, tried: Game, done: list[str]
    ) -> ExerciseVerdict:
        text = exercise.run.item.split(BLUNDER_SEP)[0]
        found = await self.workers.run(
            judge_blunder, text, done, exercise.better, self.analysis.reply_width
        )
        await self.repo.close(exercise.run.user_id)
        reasons = () if found else (_("Your turn still gives away more than the better one."),)
        better = _turn_text(exercise.start, exercise.better)
        return ExerciseVerdict(
            found, reasons, tried, _turn_text(exercise.start, done), exercise, answer=better
        )

    async def puzzle_rating(self, user_id: int) -> PuzzleRating | None:
        return await self.repo.puzzle_rating(user_id)

    # ------------------------------------------------------------------ daily puzzle

    async def set_daily(self, guild_id: int, channel_id: int | None) -> None:
        """Post the daily puzzle in ``channel_id`` from now on (None: stop)."""
        if channel_id is None:
            await self.settings.delete(guild_id, DAILY_CHANNEL)
        else:
            await self.settings.set(guild_id, DAILY_CHANNEL, str(channel_id))

    async def daily_due(self, day: datetime.date) -> list[tuple[int, int]]:
        """(guild, channel) of the daily puzzles not yet posted on ``day``."""
        found = await self.repo.daily_channels()
        return [(g, c) for g, c, posted in found if posted != day.isoformat()]

    async def daily_posted(self, guild_id: int, day: datetime.date) -> None:
        await self.settings.set(guild_id, DAILY_POSTED, day.isoformat())


def _turn_text(start: Game, tokens: Sequence[str]) -> str:
    line = start.copy()
    play_tokens(line, tokens)
    texts = [text for t, _end, text in notation.turn_texts(line) if t == start.turn]
    return texts[0] if texts else " ".join(tokens)


def _words(tokens: Sequence[str]) -> list[str]:
    return [f"✈ {t}" for t in tokens if t != "-"] or ["✈ " + _("dive ended")]
