# Two commands: `make run` (set up and serve with demo data) and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install browser run serve test lint typecheck pytest bench loadtest faults soak capacity messages clean audit lock lock-check

# Everything comes from requirements/lock.txt: one version of each dependency
# (dev included), each file checked against its sha256. The project itself is
# then installed without its dependencies (they are all in the lock already) and
# with the locked setuptools (no unpinned build environment fetched).
LOCK := requirements/lock.txt

$(STAMP): pyproject.toml $(LOCK)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

install: $(STAMP)

# Re-resolve after a change to pyproject's dependencies (versions already locked
# are kept); `make lock UPGRADE=1` takes the newest each range allows.
lock: install
	$(PY) scripts/lock.py lock $(if $(UPGRADE),--upgrade)

# Fails when pyproject.toml's dependencies and the lock disagree (offline, instant).
lock-check: install
	$(PY) scripts/lock.py check

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo ""
	@echo "  La Chasse aux Souris is served at http://$(HOST):$(PORT)/"
	@echo ""
	$(PY) manage.py runserver $(HOST):$(PORT)

test: install lock-check lint typecheck pytest

lint: install
	$(VENV)/bin/ruff check .

typecheck: install
	$(VENV)/bin/mypy --strict cardgames/engines

pytest: install browser
	$(PY) -m pytest

# The browser tests drive Debian's chromium (never a downloaded one). On a fresh
# machine it is installed here when apt-get can (root), so `make test` runs the
# whole suite; elsewhere the suite says plainly that the browser tests did not run.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "== installing Debian's chromium for the browser tests =="; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "WARNING: chromium is not installed: the browser tests will not run (apt-get install -y chromium)"; \
	  fi; }

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
	$(PY) benchmarks/bench_render.py
	$(PY) benchmarks/bench_bytes.py
	$(PY) benchmarks/bench_focus.py --seeds 10
	$(PY) benchmarks/bench_learning_gain.py --learners 200
	$(PY) benchmarks/bench_ws.py --seconds 20

# A school day (75 tables, 300 sockets) on the embedded default, then on the
# machine's PostgreSQL + Redis with 1 and 2 workers (one killed mid-run).
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379
# (uses Redis db 4, flushed); override with LOADTEST_PG / LOADTEST_REDIS_DB.
loadtest: install
	$(PY) benchmarks/loadtest.py --tables 75

# Issue 49, on a PostgreSQL and a Redis of the run's own (the shared ones are
# never restarted): Redis and PostgreSQL restarted under 300 sockets and 2
# workers, and 20 tablets cut right after a move (recovery times, then the
# database checked); a compressed school morning printing memory, connections,
# Redis keys and sockets (SOAK_MINUTES); the largest number of tables 1, 2 and
# 4 workers carry within the targets, profiled with py-spy when installed
# (pip install --target /tmp/pyspy py-spy).
SOAK_MINUTES ?= 30
faults: install
	$(PY) benchmarks/faults.py --tables 75

soak: install
	$(PY) benchmarks/soak.py --minutes $(SOAK_MINUTES)

capacity: install
	$(PY) benchmarks/capacity.py --workers 1,2,4 --steps 30,60,120,180,240,300 --past-latency --profile

messages: install
	$(PY) manage.py makemessages -l fr -l de -l en --ignore=.venv --ignore=staticfiles
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
