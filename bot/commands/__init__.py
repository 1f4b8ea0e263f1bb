"""Subcommands of the `mafiatour` console script, one module each.

Every module exposes ``register(subparsers)``, which adds its parser and sets
``handler=run`` where ``run(args) -> int`` returns the process exit code.
"""
