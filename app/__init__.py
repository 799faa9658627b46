"""Tabletop Arena: an online multiplayer server for five card and board games."""
