"""How many examples a property test tries: its own count under the full profile (`make test`),
a quarter of it under the quick one (`make check` runs `--hypothesis-profile=quick`).

The profiles are registered in tests/conftest.py; a test that sets its own `max_examples`
writes `max_examples=examples(N)` so the quick lane scales it too.
"""

from __future__ import annotations

from hypothesis import settings

# The examples of a test without a count of its own, per profile (Hypothesis's default: 100).
FULL = 100
QUICK = 25
# A property is never tried on fewer examples than this.
FEWEST = 10


def examples(full: int) -> int:
    """`full` examples scaled to the loaded profile."""
    return max(FEWEST, full * settings.default.max_examples // FULL)
