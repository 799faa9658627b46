"""Administrators (issue 13, item 5): who they are (``users.is_admin``, set by ``scripts/admin.py``),
what they may do (grant and revoke ranks, adjust points, manage the rewards catalogue, moderate
clans), and the audit row each of their changes leaves (``admin_actions``). See docs/points.md."""
