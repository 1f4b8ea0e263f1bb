# The two commands of the README: `make run` and `make test`. Both set everything up first.
# `make check` is the quick lane while working: lint, types, unit and SQLite integration tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

# Two test processes (pytest-xdist), one a core. `make test WORKERS=3` runs three: the
# tests mostly wait, but three at once make the longest (cups, replica drills) slower.
WORKERS ?= 2
# Every test process (each xdist worker, each bot process a test starts) compiled the project's
# modules and rewrote the tests' asserts anew where PYTHONDONTWRITEBYTECODE is set (this
# machine's shells set it): the bytecode is kept under .venv instead, out of the tree, and a
# worker's collection takes 6 s of CPU instead of 10.
PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache \
	$(BIN)/pytest -n $(WORKERS)

.PHONY: run test check static lint bench simulate install clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

install: $(STAMP)

## The product: the real bot with BOT_TOKEN, or the offline demonstration without it.
run: $(STAMP)
	$(BIN)/mafiatour run --offline-without-token

## The whole test suite: lint, format check, types, then every test on SQLite and PostgreSQL.
test: static
	$(PYTEST)

## The quick lane: lint, format check, types, the unit tests and the integration tests on SQLite.
check: static
	$(PYTEST) -m "(unit or integration) and not postgresql" --hypothesis-profile=quick

static: $(STAMP)
	scripts/ensure-services
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Speed and memory figures (printed, never asserted).
bench: $(STAMP)
	@for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

simulate: $(STAMP)
	$(BIN)/mafiatour simulate

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
