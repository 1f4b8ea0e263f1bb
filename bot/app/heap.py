"""The garbage collector set for a long-running bot.

Every collection stops the event loop, and one of the oldest generation walks every object
the process holds: some 350,000 right after start-up (the modules, aiogram's and pydantic's
models, SQLAlchemy's mappers, the translations), 230-270 ms on the developer's 2-core machine.
Through a 300-player cup on CPython's defaults the bot's process made 36 such collections of
up to 615 ms, and every update being handled waited through each.

What start-up made lives as long as the process, so once the application is built it is
moved out of every later collection's sight (`gc.freeze`); and the youngest generation is
collected after more allocations than CPython's 700, so the objects of the updates in flight
die before a collection carries them into the older generations (where they would make the
next full collection come sooner). The same cup then made 372 collections, 3.8 s in all
(9.9 s with the freeze alone, 19.6 s on the defaults), 5 of them of 50 ms or more. The
middle and oldest generations are collected less often still (`THRESHOLDS`).
"""

from __future__ import annotations

import gc

# Allocations (less deallocations) between two collections of the youngest generation, then
# collections of one generation between two of the next (CPython's defaults: 700, 10, 10).
# The middle generation is collected every 5 (not 10) of the youngest's, so each of its
# collections walks half as much; the oldest once in 100 of the middle's (5 million
# allocations, more than a 300-player cup makes: one such collection walked 150 ms of CPU
# in the cup, every update in flight waiting).
THRESHOLDS = (10_000, 5, 100)


def settle_start_up() -> None:
    """Collect what start-up left behind, keep the rest out of every later collection, and
    collect the youngest generation less often."""
    gc.set_threshold(*THRESHOLDS)
    gc.collect()
    gc.freeze()
