"""The ``limits`` wrapper used for logins and websocket frames."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.ratelimit import RateLimiter
from tests.conftest import make_settings, require_redis


def test_hit_until_the_limit_then_refuse():
    limiter = RateLimiter("3/minute", namespace="t")
    assert limiter.retry_after("a") == 0
    assert [limiter.hit("a") for _ in range(5)] == [True, True, True, False, False]
    assert 1 <= limiter.retry_after("a") <= 60
    assert limiter.hit("b")  # keys are independent
    assert limiter.retry_after("b") == 0
    limiter.clear("a")
    assert limiter.hit("a")


def test_several_limits_in_one_string():
    limiter = RateLimiter("2/second; 3/minute", namespace="t")
    assert [limiter.hit("k") for _ in range(3)] == [True, True, False]
    assert limiter.retry_after("k") == 1


def test_refused_hits_are_not_counted():
    limiter = RateLimiter("1/second", namespace="t")
    assert limiter.hit("k")
    assert not limiter.hit("k")
    import time

    time.sleep(1.05)
    assert limiter.hit("k")


def test_namespaces_do_not_share_counters_on_one_storage():
    a = RateLimiter("1/minute", namespace="a")
    b = RateLimiter("1/minute", namespace="b")
    b.storage, b._limiter = a.storage, a._limiter
    assert a.hit("k") and b.hit("k")


def test_bad_rate_string():
    with pytest.raises(ValueError):
        RateLimiter("lots")


def test_from_settings_uses_memory_without_redis(sqlite_url):
    limiter = RateLimiter.from_settings(make_settings(sqlite_url), "5/second", namespace="ws")
    assert limiter.is_local
    assert asyncio.run(limiter.ahit("x"))


@pytest.mark.redis
def test_redis_storage_is_shared_between_limiters():
    url = require_redis(0)
    ns = f"test-{uuid.uuid4().hex}"
    a = RateLimiter("2/minute", storage_url=url, namespace=ns)
    b = RateLimiter("2/minute", storage_url=url, namespace=ns)  # "another process"
    assert not a.is_local
    try:
        assert a.hit("k")
        assert asyncio.run(b.atest("k"))  # one left: a test counts nothing
        assert asyncio.run(b.ahit("k"))
        assert not asyncio.run(a.atest("k"))
        assert not a.hit("k")
        assert 1 <= asyncio.run(b.aretry_after("k")) <= 60
    finally:
        a.clear("k")


def test_storage_url_may_be_given_by_position():
    assert RateLimiter("1/second", None).is_local
    assert not RateLimiter("1/second", "redis://127.0.0.1:6379/0").is_local  # connects lazily
