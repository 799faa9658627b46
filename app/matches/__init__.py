"""The match service: the single writer of every match (DESIGN.md section 3)."""
