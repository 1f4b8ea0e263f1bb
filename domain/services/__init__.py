"""Use cases: each one is one unit of work over the repositories, applying the pure rules."""
