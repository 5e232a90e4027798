"""Tournaments run through the bot in simcord's in-memory Discord."""
