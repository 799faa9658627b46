"""Tournaments (issue 14): round robin, Swiss and knockout, organised by Masters and run by the
server exactly once per step. See ``docs/tournaments.md``."""
