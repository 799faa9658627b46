"""Database plumbing: declarative base, engine and session factory."""
