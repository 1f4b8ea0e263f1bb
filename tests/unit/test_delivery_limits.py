"""Telegram's flood limits on the bot's side, as sliding windows over a fake clock."""

from __future__ import annotations

import math

from bot.delivery.limits import DeliveryLimits, RateLimiter

PERSON, OTHER, CHANNEL = 101, 102, -100_500


def _send(limiter: RateLimiter, chat_id: int, now: float, answered: float | None = None) -> None:
    slot = limiter.start(chat_id, now)
    limiter.finish(slot, now if answered is None else answered)


def test_one_message_per_second_to_a_person() -> None:
    limiter = RateLimiter(DeliveryLimits())
    _send(limiter, PERSON, 0.0)
    assert limiter.wait(PERSON, 0.5) == 0.5
    assert limiter.wait(OTHER, 0.5) == 0.0
    assert limiter.wait(PERSON, 1.0) == 0.0


def test_a_window_counts_from_the_answer_not_from_the_request() -> None:
    limiter = RateLimiter(DeliveryLimits())
    slot = limiter.start(PERSON, 0.0)
    # Unanswered, the request may still reach Telegram at any moment.
    assert limiter.wait(PERSON, 5.0) == math.inf
    limiter.finish(slot, 5.2)
    assert math.isclose(limiter.wait(PERSON, 6.0), 0.2)


def test_thirty_messages_per_second_overall() -> None:
    limiter = RateLimiter(DeliveryLimits())
    for person in range(30):
        _send(limiter, 1000 + person, 0.01 * person)
    assert math.isclose(limiter.wait(2000, 0.5), 0.5)
    assert limiter.wait(2000, 1.0) == 0.0


def test_twenty_posts_per_minute_to_a_channel() -> None:
    limiter = RateLimiter(DeliveryLimits())
    for second in range(20):
        _send(limiter, CHANNEL, float(second))
    assert limiter.wait(CHANNEL, 20.0) == 40.0
    assert limiter.wait(PERSON, 20.0) == 0.0
    assert limiter.wait(CHANNEL, 60.0) == 0.0


def test_configured_limits_are_kept() -> None:
    limiter = RateLimiter(DeliveryLimits(messages_per_second=2, group_per_minute=1))
    _send(limiter, PERSON, 0.0)
    _send(limiter, OTHER, 0.0)
    assert limiter.wait(103, 0.1) == 0.9
    _send(limiter, CHANNEL, 1.0)
    assert limiter.wait(CHANNEL, 2.0) == 59.0


def test_retry_after_pauses_only_that_chat() -> None:
    limiter = RateLimiter(DeliveryLimits())
    limiter.pause(PERSON, 3, now=10.0)
    assert limiter.wait(PERSON, 11.0) == 2.0
    assert limiter.wait(OTHER, 11.0) == 0.0
    assert limiter.wait(PERSON, 13.0) == 0.0


def test_idle_chats_are_forgotten() -> None:
    limiter = RateLimiter(DeliveryLimits())
    _send(limiter, PERSON, 0.0)
    limiter.forget_idle(5.0)
    assert limiter.wait(PERSON, 5.0) == 0.0


def test_sends_from_before_a_restart_still_count() -> None:
    limiter = RateLimiter(DeliveryLimits())
    for person in range(30):
        limiter.seed(1000 + person, sent_at=-0.5)
    limiter.seed(CHANNEL, sent_at=-0.5)
    assert limiter.wait(2000, 0.0) == 0.5
    assert limiter.wait(1000, 0.0) == 0.5


def test_a_slot_given_back_counts_against_no_window() -> None:
    limiter = RateLimiter(DeliveryLimits())
    for second in range(19):
        _send(limiter, CHANNEL, float(second))
    unused = limiter.start(CHANNEL, 19.0)  # an edit that turned out to change nothing
    assert limiter.wait(CHANNEL, 19.5) > 0  # the minute's 20th place is taken
    limiter.give_back(unused)
    assert limiter.wait(CHANNEL, 19.5) == 0.0
