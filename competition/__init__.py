"""Competition logic without Discord, storage or clocks: series rules, ratings, pairings,
brackets, tables and standings.

It imports only ``rules``. The storage-backed services in ``bot/services`` feed these pure
functions what they have stored (entrants, results so far, ratings) and store what they
return. ``docs/tournaments.md``, ``docs/series.md`` and ``docs/ratings.md`` give the rules.
"""
