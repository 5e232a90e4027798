"""The tables of the migrations from version 13 on, written in SQLite's dialect as the
older ones in :mod:`storage.migrations` are (which lists them all, in order, in
``MIGRATIONS``): kept here so that neither module grows past the size of one."""

from __future__ import annotations

from typing import Final

# What the bot's processes on one token share of Discord's limits (storage/gateway.py):
# the time each identify bucket may next identify, and a lease per live process, so that
# the token's one global REST budget is split between the processes alive.
V13_GATEWAY: Final = """
CREATE TABLE identify_slots (
    bucket INTEGER PRIMARY KEY,
    at     REAL    NOT NULL
);

CREATE TABLE rest_leases (
    process TEXT PRIMARY KEY,
    expires REAL NOT NULL
);
"""

# Takebacks asked for (storage/takebacks.py): who must agree and who has (",id,id,").
V14_TAKEBACKS: Final = """
CREATE TABLE takebacks (
    id       INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    asker_id INTEGER NOT NULL,
    at_ply   INTEGER NOT NULL,
    to_ply   INTEGER NOT NULL CHECK (0 <= to_ply AND to_ply < at_ply),
    asked    TEXT    NOT NULL,
    agreed   TEXT    NOT NULL DEFAULT ',',
    status   TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'no', 'stale'))
);
"""

# Each person's board palette (storage/palettes.py); a server's default is a guild setting.
V15_PALETTES: Final = """
CREATE TABLE board_palettes (
    user_id    INTEGER PRIMARY KEY,
    palette    TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);
"""

# Each tournament's Discord scheduled event (storage/tournament_calendar.py): the event
# that lists it in the server's events, once created; none when the bot could not.
V16_TOURNAMENT_CALENDAR: Final = """
CREATE TABLE tournament_calendar (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id),
    event_id      INTEGER NOT NULL UNIQUE
);
"""

# The turn clocks' deadline index (storage/live_index.py): when each active match next
# needs its clock looked at (the reminder, then the deadline), so that a tick reads what
# is due instead of every match (and the computer's seats, to find where it is to move
# without reading every seat). ``remind_seconds`` is how long before its deadline a
# turn is reminded; every write of a deadline sets ``clock_due`` from it. A match mid-turn
# at the upgrade is due at its deadline: that one turn goes without its reminder.
V17_CLOCK_DUE: Final = """
ALTER TABLE matches ADD COLUMN remind_seconds REAL;
ALTER TABLE matches ADD COLUMN clock_due REAL;
UPDATE matches SET clock_due = turn_deadline WHERE status = 'active';
CREATE INDEX matches_clock_due ON matches (clock_due) WHERE clock_due IS NOT NULL;
CREATE INDEX seats_computer ON seats (match_id, seat) WHERE user_id IS NULL;
"""

# The draw offers standing in a match (storage/matches.py): kept with the match, so that
# every process of a sharded bot, and the bot after a restart, sees the same offers.
# They lapse when the turn passes (the step that passes it deletes them).
V18_DRAW_OFFERS: Final = """
CREATE TABLE draw_offers (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    PRIMARY KEY (match_id, seat)
);
"""

# Which process is bringing a match's board up to date (storage/boards.py), so that two
# processes acting on one match at once show it one after the other, never each posting
# a board of its own. A lease runs out by itself: a process that died holds nothing.
V19_BOARD_LEASES: Final = """
CREATE TABLE board_leases (
    match_id INTEGER PRIMARY KEY,
    holder   TEXT    NOT NULL,
    expires  REAL    NOT NULL
);
"""

# Rematch offers (storage/rematches.py): one per finished match, kept so that every
# process of a sharded bot, and the bot after a restart, sees the same offer. Who was
# asked and who has still to answer as ",id,id,"; ``rematch_id`` once the match is made;
# the offer's message in a channel (none where only a press's token may edit it). An
# accepted offer whose match could not be made lapses (kept, so its id is never reused).
V20_REMATCH_OFFERS: Final = """
CREATE TABLE rematch_offers (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    host_id    INTEGER NOT NULL,
    host_name  TEXT    NOT NULL,
    rated      INTEGER NOT NULL,
    asked      TEXT    NOT NULL,
    waiting    TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'open'
               CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'lapsed')),
    closed_by  TEXT    NOT NULL DEFAULT '',
    rematch_id INTEGER,
    channel_id INTEGER,
    message_id INTEGER
);
CREATE UNIQUE INDEX rematch_offers_one ON rematch_offers (match_id) WHERE status <> 'lapsed';
"""

# Challenges to a duel (storage/challenges.py), kept so that every process of a sharded
# bot answers the same challenge, and an open challenge outlives a restart. Its game as
# a duel's settings are made (ruleset, planes, fire, variants as "a,b"), its clock as
# JSON; ``match_id`` once accepted and made; its message in a channel, once posted
# there. An accepted challenge whose match could not be made is open again.
V21_CHALLENGES: Final = """
CREATE TABLE challenges (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,
    channel_id   INTEGER NOT NULL,
    asked_in     INTEGER NOT NULL,
    host_id      INTEGER NOT NULL,
    host_name    TEXT    NOT NULL,
    invited_id   INTEGER NOT NULL,
    invited_name TEXT    NOT NULL,
    ruleset      TEXT    NOT NULL,
    planes       INTEGER,
    fire_mode    TEXT    NOT NULL,
    variants     TEXT    NOT NULL,
    clouds       TEXT    NOT NULL,
    clock        TEXT    NOT NULL,
    rated        INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn')),
    match_id     INTEGER,
    posted_in    INTEGER,
    message_id   INTEGER,
    created      REAL    NOT NULL
);
CREATE INDEX challenges_open ON challenges (guild_id, created) WHERE status = 'open';
"""
