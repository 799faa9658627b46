"""Player points and ranks (issue 13, item 5): the points ledger and the Scratch Knight ranks.

- :mod:`app.points.models`: the tables ``player_points`` (a player's balance and lifetime
  earnings), ``points_ledger`` (every credit and debit with its reason and reference) and
  ``rank_changes`` (every change of rank, with who made it).
- :mod:`app.points.ledger`: :func:`~app.points.ledger.credit`, the one way points move.
- :mod:`app.points.ranks`: :class:`~app.points.ranks.Rank` and the promotions.
- :mod:`app.points.consumer`: the ``points`` consumer of finished matches (rated wins, wins over a
  Lord), exactly once.
- :mod:`app.points.reads`, :mod:`app.points.routes`: a player's points for the profile and
  ``GET /api/users/{name}/points``.

Administrators' grants, revokes and adjustments: :mod:`app.admin`; rewards: :mod:`app.rewards`;
docs/points.md.

Clans' ladder points are the clans' own ledger, ``clan_points`` (:mod:`app.clans.models`).
"""
