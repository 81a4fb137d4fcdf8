"""The retry-policy model tells three cases apart: no limit, a known count, and a count held in a
name (bounded, count unknown). `jobcheck jobs --output-format json` shows which."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobcheck.analysis.jobs import Anchor, Bound, RetryLimit, RetryPolicy

from .cli_support import run_cli, write_tree

TASKS = """
import dramatiq
import requests
import tenacity
from celery import shared_task
from django.conf import settings
from temporalio import activity, workflow
from six.moves import xrange
from temporalio.common import RetryPolicy

MAX_TRIES = int(settings.MAX_TRIES)


def create_ports(body):
    for attempt in xrange(4):
        try:
            return requests.post("https://network.example/ports", json=body)
        except requests.ConnectionError:
            if attempt == 3:
                raise


@shared_task(autoretry_for=(Exception,), max_retries=None)
def forever(order_id):
    pass


@shared_task(autoretry_for=(Exception,), max_retries=settings.CHARGE_RETRIES)
def from_settings(order_id):
    pass


@shared_task(autoretry_for=(Exception,), max_retries=5)
def five(order_id):
    pass


@dramatiq.actor(max_retries=settings.ACTOR_RETRIES)
def actor_from_settings(order_id):
    pass


@tenacity.retry(stop=tenacity.stop_after_attempt(MAX_TRIES))
def fetch(url):
    pass


@tenacity.retry()
def fetch_forever(url):
    pass


@activity.defn
async def charge(order_id):
    pass


@activity.defn
async def refund(order_id):
    pass


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self, order_id):
        await workflow.execute_activity(charge, order_id, retry_policy=RetryPolicy(maximum_attempts=MAX_TRIES))
        await workflow.execute_activity(refund, order_id)
"""


@pytest.fixture
def jobs(tmp_path: Path) -> dict:
    write_tree(tmp_path, {"shop/__init__.py": "", "shop/tasks.py": TASKS})
    result = run_cli(["jobs", "--output-format", "json", "."], tmp_path)
    assert result.exit_code == 0, result.stderr
    return {row["name"]: row["retry"] for row in json.loads(result.stdout)["jobs"]}


def _limit(retry: dict) -> tuple:
    return retry["bounded"], retry["max_retries"], retry["count_from"]


def test_a_count_held_in_a_name_is_bounded_with_the_name_shown(jobs: dict) -> None:
    assert _limit(jobs["from_settings"]) == (True, None, "CHARGE_RETRIES")
    assert _limit(jobs["actor_from_settings"]) == (True, None, "ACTOR_RETRIES")
    assert _limit(jobs["charge"]) == (True, None, "int(MAX_TRIES)")  # maximum_attempts=MAX_TRIES, read through the constant


def test_no_limit_and_known_counts(jobs: dict) -> None:
    assert _limit(jobs["forever"]) == (False, None, None)
    assert _limit(jobs["five"]) == (True, 5, None)
    assert _limit(jobs["create_ports"]) == (True, 3, None)  # a hand-written loop over six's `xrange(4)`
    assert _limit(jobs["refund"]) == (False, None, None)  # Temporal's default RetryPolicy


def test_retry_decorators_read_the_same_way() -> None:
    from jobcheck.frameworks.retrying import _tenacity

    anchor = Anchor("x.py", 1, 0, 1, 1)
    named = _tenacity({"stop": ["call", "tenacity.stop_after_attempt", [["name", "shop.MAX_TRIES"]], {}]}, anchor)
    assert (named.bounded, named.limit, named.retries.count_from) == (True, None, "shop.MAX_TRIES")
    three = _tenacity({"stop": ["call", "tenacity.stop_after_attempt", [["lit", 3]], {}]}, anchor)
    assert (three.bounded, three.limit) == (True, 2)
    forever = _tenacity({}, anchor)
    assert not forever.bounded and forever.limit is None


def test_a_policy_must_say_whether_it_stops() -> None:
    anchor = Anchor("x.py", 1, 0, 1, 1)
    with pytest.raises(TypeError):
        RetryPolicy("@retry", anchor)  # type: ignore[call-arg]
    assert RetryPolicy("max_retries=0", anchor, retries=RetryLimit.known(0)).disabled
    assert not RetryPolicy("x", anchor, retries=RetryLimit.unknown_count("N")).disabled


def test_most_orders_known_then_unknown_then_unlimited() -> None:
    ordered = [RetryLimit.known(0), RetryLimit.known(9), RetryLimit.unknown_count("N"), RetryLimit.unlimited()]
    assert sorted(reversed(ordered), key=RetryLimit.most_key) == ordered
    assert [limit.bound for limit in ordered[1:]] == [Bound.KNOWN, Bound.UNKNOWN_COUNT, Bound.UNLIMITED]
