"""The garbage collector set for a long-running bot.

Every collection stops the event loop, and one of the oldest generation walks every object
the process holds: some 350,000 right after start-up (the modules, aiogram's and pydantic's
models, SQLAlchemy's mappers, the translations), 230-270 ms on the developer's 2-core machine.
Through a 300-player cup on CPython's defaults the bot's process made 36 such collections of
up to 615 ms, and every update being handled waited through each.

What start-up made lives as long as the process, so once the application is built it is
moved out of every later collection's sight (`gc.freeze`). Then each collection walks the
young objects: the updates in flight, what a burst of them built, and what will live on (a
cache filling up). The youngest generation held 40,000 of them at a collection although its
threshold was 10,000 allocations (a dict the collector starts to track only once it holds a
container is not counted), and the middle one walked 67,000 (44 ms of CPU on the
developer's loaded 2-core machine, every update in flight waiting). Collecting them more
often keeps each collection short: at 3,000 allocations (`THRESHOLDS`) the longest young
collection in a 300-player cup was 23 ms of CPU (44 at 10,000, with 681 collections against
174: 1.7 s of CPU in all against 0.9, of the bot's some 100 s in the cup).
"""

from __future__ import annotations

import gc

# Allocations (less deallocations) between two collections of the youngest generation, then
# collections of one generation between two of the next (CPython's defaults: 700, 10, 10).
# The middle generation is collected every 5 of the youngest's, so each walks at most five
# young generations' survivors; the oldest walks every object made since start-up (a
# collection of some 200 ms of CPU), once in 300 of the middle's: some 4.5 million
# allocations, more than a 300-player cup makes (and CPython waits besides until a quarter
# as many objects as the last full collection found have reached the oldest generation).
THRESHOLDS = (3_000, 5, 300)


def settle_start_up() -> None:
    """Collect what start-up left behind, keep the rest out of every later collection, and
    set how often each generation is collected (`THRESHOLDS`)."""
    gc.set_threshold(*THRESHOLDS)
    gc.collect()
    gc.freeze()
