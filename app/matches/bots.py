"""Computer moves chosen off the match lock and off the event loop (issue 8, item 6).

The sweeper (:mod:`app.matches.sweeper`) reads a match in a short transaction and turns the seat
that is due into a :class:`BotJob`: plain, picklable data (game id, options, seat, bot level, the
seat's bot observation and legal actions as JSON, an rng seed derived from the match seed, a time
budget). A :class:`BotRunner` hands the job to a worker and awaits the chosen action (JSON); the
sweeper then submits it through the single writer with the version it read.

Workers are a process pool by default (``BOT_POOL=process``): bots are CPU-bound Python, and
only another process lets one think for seconds while the event loop keeps answering every other
match. ``thread`` keeps them off the loop but shares the interpreter lock; ``inline`` runs them on
the loop (only for debugging). The pool is made on the first job and shared by every service of
the process (tests make many); its workers end with the process (``concurrent.futures`` joins
them at exit, and a worker whose server was killed ends by itself).

The function a worker runs, :func:`choose_action`, imports nothing but the games, so a worker
starts fast and never touches the database.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import random
import signal
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context, parent_process
from multiprocessing.connection import wait
from typing import Any

from app.games.core import all_games, get_rules, make_bot

JSON = Any

POOL_KINDS = ("process", "thread", "inline")


@dataclass(frozen=True, slots=True)
class BotJob:
    """One computer move to choose, as picklable data.

    :param game: the game id.
    :param options: the match's game options (they pick the variant's rules).
    :param seat: the seat to play.
    :param level: the computer seat's bot level; ``None`` for a person's seat the computer plays
        (timeout, away, resigned): then the game's own timeout policy chooses, from ``state``.
    :param observation: ``rules.bot_observation(state, seat)`` (what that seat may know).
    :param legal: the seat's legal actions, JSON-encoded.
    :param rng_seed: seed of the bot's ``random.Random`` (derived from the match seed, the version
        and the seat, so a move is reproducible).
    :param budget_ms: the bot's time budget in milliseconds (a soft limit the bot honours).
    :param state: the encoded state, only when ``level`` is ``None``
        (:meth:`Rules.timeout_action` takes the state and promises to decide from the seat's
        observation only).
    """

    game: str
    options: Mapping[str, JSON]
    seat: int
    level: str | None
    observation: Mapping[str, JSON]
    legal: Sequence[JSON]
    rng_seed: bytes
    budget_ms: int
    state: JSON = None


def choose_action(job: BotJob) -> JSON:
    """Choose the move of ``job`` (runs in a worker).

    :returns: the chosen action, JSON-encoded.
    :raises GameError: the job does not fit the game (an unknown level, an undecodable action).
    """
    rules = get_rules(job.game, job.options)
    rng = random.Random(job.rng_seed)
    if job.level is None:
        action = rules.timeout_action(rules.decode_state(job.state), job.seat, rng)
    else:
        legal = [rules.decode_action(a) for a in job.legal]
        action = make_bot(job.game, job.level).choose(job.observation, legal, rng, job.budget_ms)
    return rules.encode_action(action)


def _worker_start(imports: tuple[str, ...], nice: int) -> None:
    """When a worker starts: end it when the server process dies (even by SIGKILL, which runs no
    shutdown) and not before (it ignores SIGINT and SIGTERM), lower its priority by ``nice`` (a person's action is answered before a bot's search
    goes on), and load every game (and the extra modules that register more)."""
    parent = parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()
        # Ctrl+C in a terminal, or a stop signal to the process group, reaches the workers too:
        # the server ends them itself (its pool's shutdown, or the watch above), and a worker
        # killed first broke the pool under a computer move still due ("A child process
        # terminated abruptly", logged with its traceback at every such stop)
        for stop in (signal.SIGINT, signal.SIGTERM):
            signal.signal(stop, signal.SIG_IGN)
    if nice > 0 and hasattr(os, "nice"):
        os.nice(nice)
    for name in imports:
        importlib.import_module(name)
    all_games()


def _exit_with(sentinel: int) -> None:
    """Wait until the parent process is gone, then end this worker at once."""
    wait([sentinel])
    os._exit(0)


def _ready() -> None:
    """A job that does nothing: submitting it makes the pool start a worker."""


_POOLS: dict[tuple[str, int, tuple[str, ...], int], Executor] = {}
#: per pool, the warm-up jobs :meth:`BotRunner.start` submitted (done: a worker is ready)
_WARMING: dict[tuple[str, int, tuple[str, ...], int], list[Future[None]]] = {}


def _pool(kind: str, workers: int, imports: tuple[str, ...], nice: int) -> Executor:
    key = (kind, workers, imports, nice)
    pool = _POOLS.get(key)
    if pool is None:
        if kind == "process":
            pool = ProcessPoolExecutor(
                workers, mp_context=get_context("spawn"), initializer=_worker_start, initargs=(imports, nice)
            )
        else:  # threads share the process's priority
            pool = ThreadPoolExecutor(
                workers, thread_name_prefix="bot", initializer=_worker_start, initargs=(imports, 0)
            )
        _POOLS[key] = pool
    return pool


class BotRunner:
    """Runs :class:`BotJob` s in a worker pool.

    :param kind: ``"process"`` (default), ``"thread"`` or ``"inline"`` (see the module docstring).
    :param workers: workers in the pool.
    :param timeout_seconds: how long to wait for a worker before giving up on a job.
    :param imports: modules each worker imports at start (bot levels or games registered outside
        ``app/games``, as tests and plug-ins do).
    :param nice: how much lower a worker process's CPU priority is than the server's (0-19).
    :raises ValueError: an unknown ``kind`` or fewer than one worker.
    """

    def __init__(
        self,
        kind: str = "process",
        workers: int = 2,
        *,
        timeout_seconds: float = 30.0,
        imports: Sequence[str] = (),
        nice: int = 10,
    ) -> None:
        if kind not in POOL_KINDS or workers < 1:
            raise ValueError(f"bot pool {kind!r} with {workers} workers; kinds: {POOL_KINDS}")
        self.kind, self.workers, self.timeout_seconds = kind, workers, timeout_seconds
        self.imports, self.nice = tuple(imports), nice

    def start(self) -> None:
        """Start the pool's workers in the background (each loads every game); returns at once.
        Until the first worker process is ready, moves are chosen in a thread (off the event loop,
        sharing the interpreter lock for those few seconds), so a server that has just started
        does not keep an overdue seat waiting for its workers."""
        if self.kind != "inline":
            key = (self.kind, self.workers, self.imports, self.nice)
            pool = _pool(*key)
            _WARMING[key] = [pool.submit(_ready) for _ in range(self.workers)]

    async def choose(self, job: BotJob) -> JSON:
        """The action a worker chooses for ``job``, JSON-encoded.

        :raises TimeoutError: no answer within ``timeout_seconds`` (the worker may still be busy).
        :raises BrokenProcessPool: a worker died (the next job starts a new pool).
        :raises GameError: the job does not fit the game.
        """
        if self.kind == "inline":
            return choose_action(job)
        loop = asyncio.get_running_loop()
        key = (self.kind, self.workers, self.imports, self.nice)
        warming = _WARMING.get(key)
        if warming is not None and not any(f.done() for f in warming):
            all_games()  # the registry loads on this thread, never on two at once
            return await asyncio.wait_for(asyncio.to_thread(choose_action, job), self.timeout_seconds)
        pool = _pool(*key)
        try:
            return await asyncio.wait_for(loop.run_in_executor(pool, choose_action, job), self.timeout_seconds)
        except BrokenProcessPool:
            if _POOLS.get(key) is pool:
                del _POOLS[key]
            raise
