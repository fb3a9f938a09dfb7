# Two commands: `make run` (set up and serve with demo data) and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run serve test lint typecheck pytest bench messages clean audit

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo ""
	@echo "  La Chasse aux Souris is served at http://$(HOST):$(PORT)/"
	@echo ""
	$(PY) manage.py runserver $(HOST):$(PORT)

test: install lint typecheck pytest

lint: install
	$(VENV)/bin/ruff check .

typecheck: install
	$(VENV)/bin/mypy --strict cardgames/engines

pytest: install
	$(PY) -m pytest

# Known vulnerabilities in the dependencies (pip-audit); says so plainly and
# succeeds when the vulnerability service cannot be reached.
audit: install
	$(PY) scripts/audit.py

bench: install
	$(PY) manage.py simulate chasse --games 1000 --players 4 --levels hard,easy,easy,easy --seed 1
	$(PY) manage.py simulate chasse --games 1000 --players 4 --levels hard,medium,medium,medium --seed 1
	$(PY) manage.py simulate purrfect --games 1000 --players 4 --levels hard,easy,easy,easy --seed 1 --rotate
	$(PY) manage.py simulate pinocchio --games 1000 --players 4 --levels hard,easy,easy,easy --seed 1 --rotate
	$(PY) manage.py simulate picktura --games 1000 --players 4 --levels hard,easy,easy,easy --seed 1 --rotate
	$(PY) benchmarks/bench_chasse_engine.py
	$(PY) benchmarks/bench_focus.py --seeds 10
	$(PY) benchmarks/bench_ws.py --seconds 20

messages: install
	$(PY) manage.py makemessages -l fr -l de -l en --ignore=.venv --ignore=staticfiles
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
