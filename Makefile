# Two commands set everything up: `make demo` and `make test`. Both create .venv when it is missing.
# `make demo` installs only what `digest` needs to run; `make test` adds the test extra on top, so
# the first command a new user types does not wait for Synapse and the rest of the test servers.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# --no-compile: byte-compiling all of scipy and scikit-learn at install time is half the CPU of
# the first `make demo`; Python compiles what it imports on first use instead.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: demo test lint lint-ruff lint-mypy clean bench-relevance bench-ideas bench-scale

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The venv's own pip (23.x on Debian 12's Python 3.11) installs editable pyproject projects
# (PEP 660), so no pip upgrade: it would only cost the first run a few seconds.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $@

$(TEST_STAMP): $(RUN_STAMP)
	$(PIP) -e '.[test]'
	touch $@

demo: $(RUN_STAMP)
	$(BIN)/digest run --config config/digest.toml

# `make test PYTEST_ARGS=tests/test_support.py`: one file only. One process per core, at most 4
# (pytest-xdist): `PYTEST_ARGS="-n 0"` runs them in this one.
test: $(TEST_STAMP)
	$(strip $(BIN)/python -m pytest -q -n auto --maxprocesses 4 $(PYTEST_ARGS))

# Benchmarks (never part of `make test`): a paper corpus by `make bench-relevance DATA=path` (else
# the bench's own default, where it exists; docs/ranking.md says how to build one); they write
# bench/results/. Relevance: about ten minutes. Ideas: about forty. Scale: about an hour, niced.
bench-relevance: $(TEST_STAMP)
	$(BIN)/python -m bench.relevance $(if $(DATA),--data $(DATA))

bench-ideas: $(TEST_STAMP)
	$(BIN)/python -m bench.ideas $(if $(DATA),--data $(DATA))

bench-scale: $(TEST_STAMP)
	nice $(BIN)/python -m bench.scale --daily $(if $(DATA),--data $(DATA))

lint: lint-ruff lint-mypy

lint-ruff: $(TEST_STAMP)
	$(BIN)/ruff check digest tests bench
	$(BIN)/ruff format --check digest tests bench

# Settings (strict, and the few exceptions with their reasons) are in pyproject.toml [tool.mypy].
lint-mypy: $(TEST_STAMP)
	$(BIN)/mypy digest

clean:
	rm -rf $(VENV) out state .pytest_cache .mypy_cache .ruff_cache
