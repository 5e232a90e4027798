"""The playground page's own words (its chrome: the sidebar, the command box, the
notes Discord's client writes), in the language of whoever looks at it, as Discord
shows its own interface in the person's language."""

from __future__ import annotations

from i18n import N_, in_language

# key -> English, marked for translation; the page fills "{n}" and "{names}" itself
WORDS = {
    "title": N_("Crosshairs playground"),
    "you_are": N_("You are"),
    "channels": N_("Channels"),
    "menu": N_("People and channels"),
    "type": N_("Type / for the bot's commands, e.g. /crosshairs challenge"),
    "send": N_("Send"),
    "older": N_("Load older messages ({n} more)"),
    "thinking": N_("Crosshairs is thinking…"),
    "only_you": N_("Only you can see this"),
    "choose": N_("— choose —"),
    "default": N_("(default)"),
    "computer": N_("(the computer)"),
    "yes": N_("yes"),
    "no": N_("no"),
    "pick": N_("Pick one of the bot's commands (type /)."),
    "required": N_("Fill in the required option: {names}"),
    "select": N_("Make a selection"),
    "events": N_("Events"),
    "interested": N_("Interested"),
    "live": N_("Happening now"),
    "activities": N_("Activities"),
    "join": N_("Join"),
    "leave": N_("Leave"),
    "back": N_("Back to the channel"),
    "return": N_("Back to the Activity"),
    "running": N_("An Activity is running here: {names}"),
    "activity_thread": N_("Activities cannot be started in a thread."),
    "activity_denied": N_("You may not start Activities in this channel."),
    "unshown": N_("This page could not show what changed: {error}"),
}


def page_words(locale: str) -> dict[str, str]:
    """Every word of the page in ``locale``'s language (English where not shipped)."""
    return {key: in_language(locale, text) for key, text in WORDS.items()}
