"""Seed sources of the `SeedSource` port: the system's random draw, and a seeded one that gives
the same seeds in the same order every time."""

from __future__ import annotations

import random
import secrets

# A seed the organizer can read back: the seating is reproducible from it.
SEED_LIMIT = 1_000_000


class SystemSeeds:
    """Seeds nobody can predict; the application draws from it unless handed another source."""

    def draw(self) -> int:
        return secrets.randbelow(SEED_LIMIT)


class SeededSeeds:
    """Seeds that follow from `seed`: hand it to `build_application(settings, seeds=...)` (or
    `running_bot`) so that the same run seats every stage the same way."""

    def __init__(self, seed: int | str) -> None:
        self._draws = random.Random(seed)

    def draw(self) -> int:
        return self._draws.randrange(SEED_LIMIT)


def page_token() -> str:
    """An unguessable token for an unlisted tournament page's link: a secret, not a seed, so it
    never comes from a seeded source."""
    return secrets.token_urlsafe(12)


def stream_token() -> str:
    """An unguessable token for a game's stream view link (the roles show there)."""
    return secrets.token_urlsafe(16)
