"""Fixtures for every suite: the simcord bot of :mod:`support.bots` and the uploads it
makes (:mod:`support.uploads`)."""

pytest_plugins = ["support.bots", "support.uploads"]
