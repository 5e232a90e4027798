"""An exercise — a lesson, a puzzle or a blunder of one's own game — played one turn on
the real board through the same cockpit as a game, in a message only the person sees;
the verdict on a finished try, in words and with the board it left.

Custom ids carry what a press needs, so they work after a restart:

* ``xh:tk:<stamp>:n:<path>`` / ``…:g:<token>`` — the exercise's cockpit buttons;
  ``xh:tm:<stamp>:<n>`` — its menus (a whole plane action per entry). The stamp (item,
  tries, steps so far) makes a press on an older board fail politely;
* ``xh:tr:<action>:<arg>`` — open a lesson (``lesson``), try a lesson or a puzzle again
  (``again``), a hint (``hint``), a puzzle's solution (``solution``, with the stamp), the
  next puzzle (``puzzle``), the daily puzzle (``daily``), a blunder from an analysis
  (``blunder``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit, jobs
from bot.services.refusal import Refusal
from bot.services.training import Exercise, ExerciseVerdict, Pressed, Training
from bot.services.workers import Workers
from bot.ui.cockpit_items import (
    CHOICE,
    choice_button,
    choice_id,
    choice_of,
    lay_out,
    menu_select,
    read_menu,
)
from bot.ui.components import Persistent, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.files import picture
from bot.ui.walls import match_of_press
from i18n import N_, _, current
from rules.ai.analysis import TurnReview, position_before
from rules.game import Game
from rules.training import lessons, shipped
from rules.words.scene import alt_text

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

PREVIEW = 768
NOBODY = discord.AllowedMentions.none()


def service(interaction: discord.Interaction) -> Training:
    return bot_of(interaction).env.training


async def board_picture(
    pool: Workers,
    game: Game,
    names: list[str],
    *,
    stage: cockpit.Panel | None = None,
    lines: bool = False,
    filename: str = "lesson.png",
) -> discord.File:
    png = await pool.run(
        jobs.draw_board,
        jobs.snapshot_of(game),
        names,
        lines=lines,
        highlight_cells=stage.highlight_cells if stage else (),
        highlight_plane=stage.highlight_plane if stage else None,
        highlight_labels=dict(stage.labels) if stage else {},
        size=PREVIEW,
        language=current(),
    )
    return picture(png, filename, alt_text(game, names))


def exercise_view(exercise: Exercise, stage: cockpit.Panel) -> discord.ui.View:
    extra: list[discord.ui.Item[Any]] = []
    if exercise.lesson is not None and exercise.lesson.hints:
        extra.append(TrainingButton("hint", exercise.lesson.id))
    if exercise.puzzle is not None and exercise.run.tries:
        extra.append(TrainingButton("solution", exercise.stamp))
    return lay_out(
        stage,
        lambda n, menu: ExerciseMenu(exercise.stamp, n, menu),
        lambda choice, row: ExerciseButton(exercise.stamp, choice, row),
        extra,
    )


async def show(
    interaction: discord.Interaction,
    exercise: Exercise,
    path: tuple[str, ...] = (),
    *,
    note: str = "",
    edit: bool = True,
) -> None:
    """The exercise's board and cockpit at ``path``, in the person's own message."""
    stage = cockpit.panel(exercise.game, path)
    head = [f"**{exercise.title}**"]
    if not exercise.run.tokens and not path:
        if exercise.lesson is not None:
            head.append(_(exercise.lesson.teach).replace("\n", " "))
        head.append("🎯 " + _("**Goal:** {goal}", goal=exercise.goal))
    if note:
        head.append(note)
    head.append(f"**{stage.title}**")
    content = "\n\n".join(head)[:2000]
    file = await board_picture(
        bot_of(interaction).workers, exercise.game, exercise.names, stage=stage
    )
    view = exercise_view(exercise, stage)
    if edit:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    else:
        await interaction.followup.send(
            content, file=file, view=view, ephemeral=True, allowed_mentions=NOBODY
        )


async def fly(interaction: discord.Interaction, stamp: str, tokens: list[str]) -> None:
    pressed: Pressed = await service(interaction).play(interaction.user.id, stamp, tokens)
    if pressed.exercise is not None:
        await show(interaction, pressed.exercise, note="\n".join(pressed.lines))
        return
    assert pressed.verdict is not None
    await tell_verdict(interaction, pressed.verdict)


async def tell_verdict(interaction: discord.Interaction, verdict: ExerciseVerdict) -> None:
    exercise = verdict.exercise
    view = components()
    if exercise.lesson is not None:
        if verdict.passed:
            text = [
                "✅ "
                + _(
                    "**{title}: passed!** You played {turn}.",
                    title=exercise.title,
                    turn=verdict.played,
                )
            ]
            if verdict.next_lesson is not None:
                view.add_item(TrainingButton("lesson", verdict.next_lesson.id, verdict.next_lesson))
            else:
                text.append(
                    "🎓 " + _("You have passed every lesson. Try `/crosshairs puzzle` next!")
                )
        else:
            text = [
                "❌ " + _("**Not yet.** You played {turn}.", turn=verdict.played),
                _(exercise.lesson.wrong) if exercise.lesson.wrong else "",
                *(f"• {r}" for r in verdict.reasons),
                _("The board shows where your try left the planes, with the lines of fire."),
            ]
            view.add_item(TrainingButton("again", exercise.lesson.id))
            if exercise.lesson.hints:
                view.add_item(TrainingButton("hint", exercise.lesson.id))
    elif exercise.puzzle is None:
        text = [
            ("✅ " + _("**Found it!**") if verdict.passed else "❌ " + _("**Not quite.**"))
            + " "
            + _(
                "You played {turn}; in the game you had played {played}.",
                turn=verdict.played,
                played=exercise.played,
            ),
            *(f"• {r}" for r in verdict.reasons),
            _("The analysis' better turn: `{turn}`.", turn=verdict.answer),
        ]
    else:
        text = puzzle_verdict(verdict, view)
    name = "solution.png" if verdict.solution is not None else "try.png"
    file = await board_picture(
        bot_of(interaction).workers, verdict.tried, exercise.names, lines=True, filename=name
    )
    await interaction.edit_original_response(
        content="\n".join(t for t in text if t)[:2000], attachments=[file], view=view
    )


def puzzle_verdict(verdict: ExerciseVerdict, view: discord.ui.View) -> list[str]:
    """A puzzle's try in words (and its buttons): missed, with another try to come;
    solved; or its solution shown."""
    exercise = verdict.exercise
    assert exercise.puzzle is not None
    themes = _("Themes: {themes}.", themes=", ".join(_(t) for t in exercise.puzzle.themes))
    if verdict.retry:
        view.add_item(TrainingButton("again", exercise.puzzle.id))
        view.add_item(TrainingButton("solution", verdict.stamp))
        return [
            "❌ " + _("**Not the best turn.** You played {turn}.", turn=verdict.played),
            *(f"• {r}" for r in verdict.reasons),
            _("The board shows where your try left the planes, with the lines of fire."),
            _(
                "Try again, or see the solution. Your puzzle rating counts only your first "
                "try, and moves once, when the puzzle ends."
            ),
        ]
    view.add_item(TrainingButton("puzzle", ""))
    if verdict.solution is not None:
        return [
            "💡 " + _("**The solution:** {turn}", turn=verdict.answer),
            *(f"• {r}" for r in verdict.reasons),
            _("The board shows the position after it, with the lines of fire."),
            themes,
            rating_line(verdict),
        ]
    tries = exercise.run.tries + 1
    solved = _("**Solved!**") if tries == 1 else _("**Solved** on try {n}.", n=tries)
    return [
        "✅ " + solved + " " + _("You played {turn}.", turn=verdict.played),
        themes,
        rating_line(verdict),
    ]


def rating_line(verdict: ExerciseVerdict) -> str:
    rating = verdict.rating
    if rating is None:
        return ""
    if not verdict.rated:
        return _(
            "Practice (you had tried this puzzle before): rating {rating}.",
            rating=f"{rating.rating:.0f}",
        )
    before = verdict.rating_before if verdict.rating_before is not None else 1500.0
    values = {
        "before": f"{before:.0f}",
        "after": f"{rating.rating:.0f}",
        "change": f"{rating.rating - before:+.0f}",
        "streak": rating.streak,
        "best": rating.best_streak,
    }
    if verdict.exercise.run.tries:
        return _(
            "Rated by your first try, a miss: puzzle rating {before} → **{after}** ({change}) "
            "· streak {streak} (best {best})",
            **values,
        )
    return _(
        "Puzzle rating {before} → **{after}** ({change}) · streak {streak} (best {best})", **values
    )


# ------------------------------------------------------------------ buttons and menus


class ExerciseButton(
    Persistent[discord.ui.Button[Any]],
    template=r"xh:tk:(?P<stamp>[^:]+):" + CHOICE,
):
    def __init__(self, stamp: str, choice: cockpit.Choice, row: int | None = None) -> None:
        super().__init__(choice_button(choice, f"xh:tk:{stamp}:{choice_id(choice)}", row))
        self.stamp = stamp
        self.choice = choice

    @classmethod
    def from_groups(cls, *groups: str) -> ExerciseButton:
        stamp, op, arg = groups
        return cls(stamp, choice_of(op, arg))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        training = service(interaction)
        exercise = await training.current(interaction.user.id, self.stamp)
        await interaction.response.defer()
        if self.choice.token is None:
            await show(interaction, exercise, self.choice.path)
        else:
            await fly(interaction, self.stamp, [self.choice.token])


class ExerciseMenu(
    Persistent[discord.ui.Select[Any]], template=r"xh:tm:(?P<stamp>[^:]+):(?P<n>\d)"
):
    def __init__(self, stamp: str, n: int, menu: cockpit.Menu | None = None) -> None:
        super().__init__(menu_select(f"xh:tm:{stamp}:{n}", menu))
        self.stamp = stamp

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._choose(interaction))

    async def _choose(self, interaction: discord.Interaction) -> None:
        exercise = await service(interaction).current(interaction.user.id, self.stamp)
        chosen = read_menu(self.item.values)
        await interaction.response.defer()
        if chosen.path is not None:
            await show(interaction, exercise, chosen.path)
            return
        await fly(interaction, self.stamp, chosen.tokens)


TRAINING_LABELS = {
    "lesson": (N_("Start the lesson"), discord.ButtonStyle.primary, "🎓"),
    "again": (N_("Try again"), discord.ButtonStyle.primary, "🔁"),
    "hint": (N_("Hint"), discord.ButtonStyle.secondary, "💡"),
    "solution": (N_("Show the solution"), discord.ButtonStyle.secondary, "💡"),
    "puzzle": (N_("Next puzzle"), discord.ButtonStyle.primary, "🧩"),
    "daily": (N_("Solve it"), discord.ButtonStyle.primary, "🧩"),
    "blunder": (N_("Find the better turn"), discord.ButtonStyle.secondary, "🔁"),
}
MOST_BLUNDERS = 5  # one row of buttons under the analysis


class TrainingButton(
    Persistent[discord.ui.Button[Any]],
    template=r"xh:tr:(?P<action>lesson|again|hint|solution|puzzle|daily|blunder):(?P<arg>[A-Za-z0-9~.-]*)",
):
    def __init__(
        self, action: str, arg: str, lesson: lessons.Lesson | None = None, label: str = ""
    ) -> None:
        default, style, emoji = TRAINING_LABELS[action]
        label = label or _(default)
        if lesson is not None:
            number = [x.id for x in shipped.course()].index(lesson.id) + 1
            label = _("Lesson {n}: {title}", n=number, title=_(lesson.title))[:80]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"xh:tr:{action}:{arg}"
            )
        )
        self.action = action
        self.arg = arg

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        training = service(interaction)
        user = interaction.user.id
        if self.action == "hint":
            lesson = shipped.lesson(self.arg)
            await tell(interaction, "💡 " + " ".join(_(h) for h in lesson.hints))
            return
        if self.action == "blunder":
            await open_blunder(interaction, training, self.arg)
            return
        if self.action == "daily":
            # a public post: the person's own exercise opens in a message of its own
            await interaction.response.defer(ephemeral=True, thinking=True)
            await show(interaction, await training.open_puzzle(user, self.arg), edit=False)
            return
        await interaction.response.defer()
        if self.action == "solution":
            await tell_verdict(interaction, await training.show_solution(user, self.arg))
            return
        if self.action == "lesson":
            exercise = await training.open_lesson(user, self.arg)
        elif self.action == "puzzle":
            exercise = await training.open_puzzle(user)
        else:
            exercise = await training.retry(user, self.arg)
        await show(interaction, exercise)


async def open_blunder(interaction: discord.Interaction, training: Training, arg: str) -> None:
    """A blunder from the analysis post, replayed by the player who made it."""
    match_text, _dot, index_text = arg.partition(".")
    if not (match_text.isascii() and match_text.isdigit() and index_text.isdigit()):
        raise Refusal(_("that button is not one of mine"))
    bot = bot_of(interaction)
    # the id may be forged: only from the match's thread, and never while it is played
    live = await match_of_press(interaction, int(match_text))
    if not live.game.is_over:
        raise Refusal(
            _("match #{id} is not finished: analyse it once the game is over", id=live.id)
        )
    await interaction.response.defer(ephemeral=True, thinking=True)
    snapshot = jobs.snapshot_of(live.game)
    review = await bot.workers.run(
        jobs.analyse_turn, snapshot, int(index_text), bot.config.analysis_depth
    )
    if review is None or not review.better_plan:
        raise Refusal(_("the analysis finds no better turn there any more"))
    if review.seat not in live.seats_of(interaction.user.id):
        raise Refusal(
            _("only {who}, who played that turn, can replay it", who=live.who(review.seat))
        )
    start = position_before(live.game, review)
    better = [s.token for s in review.better_plan]
    exercise = await training.open_blunder(interaction.user.id, start, better, review.played)
    await show(interaction, exercise, edit=False)


def blunder_view(match_id: int, reviews: list[TurnReview]) -> discord.ui.View | None:
    """Under the analysis: a button per blunder (the first few), for its player to find
    the better turn."""
    view = components()
    for index, review in enumerate(reviews):
        if review.mark == "blunder" and review.better_plan and len(view.children) < MOST_BLUNDERS:
            label = _("Turn {n}: find the better turn", n=review.number)
            view.add_item(TrainingButton("blunder", f"{match_id}.{index}", label=label))
    return view if view.children else None


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(ExerciseButton, ExerciseMenu, TrainingButton)
