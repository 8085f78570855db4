# Two commands set everything up: `make demo` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint clean bench-relevance bench-ideas bench-scale

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/digest run --config config/digest.toml

test: $(STAMP)
	$(BIN)/python -m pytest -q

# Benchmarks (never part of `make test`); they read ../shared/data/arxiv-2025.jsonl.gz and write
# bench/results/. Relevance: a few minutes. Ideas: about ten. Scale: about an hour, niced.
bench-relevance: $(STAMP)
	$(BIN)/python -m bench.relevance

bench-ideas: $(STAMP)
	$(BIN)/python -m bench.ideas

bench-scale: $(STAMP)
	nice $(BIN)/python -m bench.scale --daily

lint: $(STAMP)
	$(BIN)/ruff check digest tests bench
	$(BIN)/ruff format --check digest tests bench

clean:
	rm -rf $(VENV) out state .pytest_cache
