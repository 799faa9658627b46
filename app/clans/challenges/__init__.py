"""Clan challenges (issue 13, item 3): one clan challenges another to a series of boards in one game.

- :mod:`~app.clans.challenges.models`: the tables ``challenges`` and ``challenge_boards``, the
  seat rule and the history codes;
- :mod:`~app.clans.challenges.service`: every change a player makes (propose, answer, withdraw,
  name a player, sign up), each checked and written with both clans' history;
- :mod:`~app.clans.challenges.matches`: starting a board's match once both players are named;
- :mod:`~app.clans.challenges.series`: a board decided once, the series result and its points;
- :mod:`~app.clans.challenges.results`: the ``challenges`` consumer of ``match_results``;
- :mod:`~app.clans.challenges.deadlines`: the deadline job (forfeits, expiry), exactly once;
- :mod:`~app.clans.challenges.reads`, ``schemas``, ``routes``: the pages' data and the API.

How it plays, for players and operators: ``docs/clans.md`` (Challenges).
"""
