"""Tournaments in Discord: the command group, registration, the organiser's controls,
team invitations, and the desk that posts rounds and standings."""
