"""What an operator can watch (Prometheus): interactions, answer latency, live matches,
storage latency, event-loop lag and Discord's failures (calls tried again, calls given
up, matches left behind for the recovery: :mod:`bot.outages`). The counters live in this
process's default registry; :mod:`bot.ops` serves them at ``/metrics``.

Names follow Prometheus' conventions: a ``crosshairs_`` prefix, seconds as the unit.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Discord's deadline is three seconds: buckets crowd below it and one marks it.
_ANSWER_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)

INTERACTIONS = Counter("crosshairs_interactions", "Interactions received, by kind", ["kind"])
ANSWER_SECONDS = Histogram(
    "crosshairs_interaction_answer_seconds",
    "From an interaction's creation (its snowflake) to the bot's first answer",
    buckets=_ANSWER_BUCKETS,
)
LIVE_MATCHES = Gauge("crosshairs_live_matches", "Matches being played in this process")
STORAGE_SECONDS = Histogram(
    "crosshairs_storage_seconds",
    "Time to commit one step (its transaction) to the database",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)
LOOP_LAG = Histogram(
    "crosshairs_event_loop_lag_seconds",
    "How late the event loop ran a timer: time it was busy with something else",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
)
LOOP_LAG_MAX = Gauge(
    "crosshairs_event_loop_lag_max_seconds", "The worst event-loop lag since start"
)
DISCORD_RETRIES = Counter(
    "crosshairs_discord_retries", "Calls to Discord tried again: it was unreachable or failing"
)
DISCORD_FAILED = Counter(
    "crosshairs_discord_failed_calls",
    "Calls to Discord that still failed after trying again (left to the recovery)",
)
DISCORD_BEHIND = Gauge(
    "crosshairs_discord_behind",
    "Matches whose board, end or turn Discord did not take, at the recovery's last look",
)
