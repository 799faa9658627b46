"""Rewards (issue 13, item 6): a small catalogue of cosmetic rewards (board and card-back themes,
profile emblems, titles) that players buy with points and equip; administrators manage it.

- :mod:`app.rewards.models`: ``rewards``, ``reward_purchases``, ``equipped_rewards``.
- :mod:`app.rewards.service`: list, buy (one transaction through the points ledger), equip, and
  the administrators' create and update.
- :mod:`app.rewards.routes`: ``/api/rewards``; the page is :mod:`app.web.rewards`.

See docs/points.md.
"""
