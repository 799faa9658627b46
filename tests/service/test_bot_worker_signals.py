"""A bot worker process ignores Ctrl+C and SIGTERM: the server process ends its workers itself."""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from app.matches.bots import _worker_start


def _handlers() -> tuple[bool, bool]:
    """In the worker: whether SIGINT and SIGTERM are ignored."""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.getsignal(signal.SIGTERM) == signal.SIG_IGN


def test_a_worker_ignores_the_stop_signals_its_process_group_gets():
    with ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=_worker_start, initargs=((), 0)) as pool:
        assert pool.submit(_handlers).result(timeout=120) == (True, True)
    # this process (the server's) still stops on them
    assert signal.getsignal(signal.SIGINT) != signal.SIG_IGN
