"""Tournaments without Discord: the organiser's plan, registration, rounds, round times,
arenas and teams (:mod:`bot.services.tournaments.service` puts them together)."""
