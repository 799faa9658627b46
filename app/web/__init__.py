"""Server-rendered pages (Jinja2); the match pages load one ES module per game."""
