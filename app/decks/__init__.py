"""Saved decks: per user and game, a named setup or loadout checked by the game's own rules."""
