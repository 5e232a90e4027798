"""Fixtures for every suite: the simcord bot of :mod:`support.bots`."""

pytest_plugins = ["support.bots"]
