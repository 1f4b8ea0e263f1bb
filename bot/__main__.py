import sys

from bot.cli import main

# Guarded: the standings pictures' worker process (multiprocessing's spawn) imports the main
# module again, and must not start a second bot.
if __name__ == "__main__":
    sys.exit(main())
