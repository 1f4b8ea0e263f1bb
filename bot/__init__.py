"""mafiatour: start-up, configuration, wiring and the command line."""

__version__ = "0.4.3"
