# Tabletop Arena. `make run` serves on http://127.0.0.1:8000 (SQLite under var/); `make test` runs
# everything this machine can run (throwaway PostgreSQL and Redis when none answers, tests/throwaway.py;
# what still cannot run is skipped and listed at the end; in CI all is required). Python 3.11+.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
TEST_STAMP := $(VENV)/.installed-test-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup migrate run test bench loadtest lint i18n clean

$(STAMP): pyproject.toml
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed; set PY=python3.11")'
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(TEST_STAMP)

setup: $(STAMP)

migrate: setup
	mkdir -p var
	$(BIN)/alembic upgrade head

run: migrate
	$(BIN)/uvicorn --factory app.main:create_app --host $(HOST) --port $(PORT) --ws-max-size 65536 --no-proxy-headers

test: $(TEST_STAMP)
	$(BIN)/pytest -q $(PYTEST_ARGS)

bench: setup
	$(BIN)/python -m bench

# the server under load over the public protocol (bench/load.py; PostgreSQL database arena_load
# on 127.0.0.1 is recreated): `make loadtest ARGS="--game stratego_junior --matches 100 --think 1"`
LOAD_ARGS ?= --matches 20 --think 0 --seconds 20
loadtest: $(TEST_STAMP)  # httpx comes with the test extras
	$(BIN)/python -m bench.load $(LOAD_ARGS) $(ARGS)

# ruff (lint rules and formatting) and mypy (strict on app/games, checked on the rest of app)
lint: $(TEST_STAMP)
	$(BIN)/ruff check app tests bench scripts migrations examples
	$(BIN)/ruff format --check app tests bench scripts migrations examples
	$(BIN)/mypy

# the gettext catalogs (docs/i18n.md): extract every marked string of app/ and templates/ into
# translations/messages.pot, then merge it into each translations/<locale>/LC_MESSAGES/messages.po
# (new strings arrive empty, gone ones are dropped); the pages compile the .po files when they start.
# Then translate the empty entries by hand; tests/i18n/ fails until none is left.
I18N_LOCALES := cs sk uk ru hu
i18n: setup
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --omit-header -k N_ -o translations/messages.pot .
	for l in $(I18N_LOCALES); do \
	  test -f translations/$$l/LC_MESSAGES/messages.po \
	    || $(BIN)/pybabel init -i translations/messages.pot -d translations -l $$l; \
	  $(BIN)/pybabel update -i translations/messages.pot -d translations -l $$l --no-fuzzy-matching --ignore-obsolete; \
	done

clean:
	rm -rf $(VENV) var .pytest_cache
