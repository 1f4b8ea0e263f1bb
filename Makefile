# The two commands of the README: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test lint bench simulate install clean

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
test: $(STAMP)
	scripts/ensure-services
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest

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
