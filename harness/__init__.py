"""The test harness, apart from the product: a fake Telegram Bot API server
(`fake_telegram/`), the sandbox that runs the real bot against it (`sandbox.py`) and the
offline simulation of a whole tournament with its report (`simulation/`).

The product (`bot/`, `handlers/`, `domain/`) never imports it, except the command line's
offline path (`mafiatour simulate`, `mafiatour run` without a token), which imports it inside
the command (`tests/unit/test_architecture.py` keeps it so); the tests and benchmarks use it.
"""
