"""Structured logging with structlog (key-value in development, JSON lines in production)."""

from __future__ import annotations

import logging

import structlog


def configure_logging(json: bool = False, level: int = logging.INFO) -> None:
    """Route structlog and the standard library through one renderer."""
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=level, format="%(message)s")


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A structlog logger bound to ``name``."""
    logger: structlog.stdlib.BoundLogger = structlog.get_logger(name)
    return logger
