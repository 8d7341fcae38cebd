# Two commands matter: `make demo` and `make test`. Everything installs into .venv, created on
# first use; nothing else is needed but Python 3.11 (and, for the PostgreSQL half of the tests,
# the local server, which `make test` starts if it is down).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PG_URL ?= postgres://postgres@127.0.0.1:5432/test

.PHONY: test test-sqlite test-postgres test-slow demo serve lint fmt clean pg-up chromium bench load chaos

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# `make test`: ruff and vulture (dead code: [tool.vulture] in pyproject.toml; what Django and
# the templates call by name, vulture_allow.py), then every test on SQLite (the engine, the
# Django suite, the browser and gunicorn tests), then the Django suite (tests/tournament) again
# on PostgreSQL, with the settings of tests/settings.py, side by side (pytest-xdist: worker
# processes, each with a test database, a live server and a browser of its own). One worker
# more than the machine has cores: the browser tests wait on the pages' own timers (a table's
# page asks every 4 s), and on two cores a third worker takes the SQLite run from 252 s to
# 197 s (a fourth: 206 s). Tests marked `slow` (production's password hasher) wait for
# `make test-slow`, which CI runs too (.ci/run). One file, one database, one test: README
# "Tests"; figures: docs/testing.md.
# Python writes its bytecode here even where the shell says not to: pytest keeps each test
# module's rewritten asserts there, and rewriting 130 modules again costs every worker 7 s.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST = PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal
test: $(STAMP) chromium pg-up
	$(PY) -m ruff check .
	$(PY) -m vulture
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-postgres

# TESTS= a folder, a file or a test (`make test-postgres TESTS=tests/tournament/test_entry.py`).
test-sqlite: $(STAMP) chromium
	DATABASE_URL= $(PYTEST) -m "not slow" $(TESTS)

test-postgres: $(STAMP) pg-up
	DATABASE_URL=$(PG_URL) $(PYTEST) -m "not slow" $(or $(TESTS),tests/tournament)

# The slow tests, as `make test` runs the rest: all of them on SQLite, the Django suite's on
# PostgreSQL.
test-slow: $(STAMP) chromium pg-up
	DATABASE_URL= $(PYTEST) -m slow $(TESTS)
	DATABASE_URL=$(PG_URL) $(PYTEST) -m slow $(or $(TESTS),tests/tournament)

# Start the machine's PostgreSQL if it is not answering (CI and developer machines have one).
pg-up:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in 1 2 3 4 5 6 7 8 9 10; do pg_isready -q -h 127.0.0.1 -p 5432 && exit 0; sleep 1; done; \
	  echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1

# The browser tests drive Debian's Chromium through Playwright (never a downloaded browser):
# its headless shell, as Playwright's own headless runs do (tests/browser/conftest.py).
chromium:
	@test -x /usr/bin/chromium-headless-shell || \
	  apt-get install -y -q chromium-headless-shell >/dev/null 2>&1 || \
	  (apt-get update -q >/dev/null && apt-get install -y -q chromium-headless-shell >/dev/null)

# The task queue's worker (issue 46: the ratings' replays, off the results writes; sign-up
# mails, push messages, channel posts) runs beside the server and stops with it. It outlives a
# database outage itself (manage.py task_worker); one that dies anyway (any exit but a clean
# one, which is a stop asked for) is started again after 5 s, said on the terminal. The shell's
# EXIT trap ends the loop and the worker, and Ctrl-C or a TERM exits the shell. Without
# --no-reload, DEBUG's autoreloader would leave a child behind. It runs at niceness 10: what it
# does can wait a moment, and on a shared core a page asked now goes first (make load's day
# runs it so: docs/performance.md).
WORKER = until nice -n 10 $(PY) manage.py task_worker --no-reload; do \
	    echo "task worker stopped (exit $$?): started again in 5 s" >&2; sleep 5; done & worker=$$!; \
	  trap 'pkill -P $$worker; kill $$worker 2>/dev/null' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM;

# The VAPID key pair that signs Web Push to players (README "Production"), made once like the
# secret key: kept in .vapid-key unless VAPID_PRIVATE_KEY is given (settings.py reads either).
VAPID_KEY = test -n "$$VAPID_PRIVATE_KEY" || test -s .vapid-key || \
	  (umask 077 && $(PY) -m tournament.push_keys > .vapid-key)

# DEMO_PORT: another port where 8000 is taken (`make demo DEMO_PORT=8080`).
DEMO_PORT ?= 8000
demo: $(STAMP)
	@$(VAPID_KEY)
	DEBUG=1 $(PY) manage.py migrate --no-input
	DEBUG=1 $(PY) manage.py collectstatic --no-input -v0
	DEBUG=1 $(PY) manage.py load_demo
	export DEBUG=1; $(WORKER) \
	  $(PY) manage.py runserver 127.0.0.1:$(DEMO_PORT)

# Production on this machine (README "Production"): the database migrated, the static files
# collected into STATIC_ROOT with their manifest, then gunicorn with production settings (DEBUG
# off) on $(BIND), behind your TLS proxy. SECRET_KEY from the environment, or made once into
# .secret-key (kept: sessions survive a restart). The server refuses to start without its
# static files rather than failing every page.
# gunicorn.conf.py: gunicorn believes X-Forwarded-Proto only with BEHIND_PROXY, as Django does.
# Without REDIS_URL the guess counts and the cache live in one process's memory: one worker
# (threads for the concurrency), so a limit counts every guess; with Redis, two workers.
BIND ?= 127.0.0.1:8001
WORKERS ?= $(if $(REDIS_URL),2,1)
THREADS ?= 4
# The standings followed without polling (README "Following without polling"): uvicorn serves
# the site's ASGI application on STREAM_BIND beside gunicorn, for the one address your proxy
# sends it; it stops with the server.
STREAM_BIND ?= 127.0.0.1:8002
STREAMER = $(VENV)/bin/uvicorn tournament.asgi:application --no-access-log --lifespan off --timeout-graceful-shutdown 3 \
	    --host $(word 1,$(subst :, ,$(STREAM_BIND))) --port $(word 2,$(subst :, ,$(STREAM_BIND))) \
	    & streamer=$$!; trap 'kill $$streamer 2>/dev/null; pkill -P $$worker; kill $$worker 2>/dev/null' EXIT;
serve: $(STAMP)
	@test -n "$$SECRET_KEY" || test -s .secret-key || \
	  $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret-key
	@$(VAPID_KEY)
	export SECRET_KEY="$${SECRET_KEY:-$$(cat .secret-key)}" STREAMS=1 && \
	  $(PY) manage.py migrate --no-input && \
	  $(PY) manage.py collectstatic --no-input -v0 && \
	  { $(WORKER) $(STREAMER) \
	    $(VENV)/bin/gunicorn tournament.wsgi -c gunicorn.conf.py -b $(BIND) -w $(WORKERS) \
	      --threads $(THREADS) --access-logfile -; }

# Figures for docs/performance.md: a 1,024-player event on PostgreSQL and SQLite, 10,000
# players, the engine; then the growth table (64 → 10,000 players, bench/growth.py).
BENCH_STAMP := $(VENV)/.bench
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,bench]"
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) pg-up
	$(PY) -m bench.run
	$(PY) -m bench.growth

# What the first reader after a result runs of our code (issue 65): the app and engine files
# that one request of the standings page, its CSV and the API's standings enters, and its hops
# between them, on the demo's Baba day, each run in fresh processes and compared (~25 s;
# bench/trace.py, docs/performance.md "Issue 65"). TRACE=--files lists each request's files;
# TRACE=--targets fails while the page enters more than 12 app files or the CSV more than 10.
.PHONY: trace
trace: $(STAMP)
	$(PY) -m bench.trace $(TRACE)

# Two app servers (gunicorn, production settings, 2 workers each) sharing PostgreSQL and Redis,
# the task queue's worker beside them: 50 clients for 60 s while a writer records a game a
# second, on the 1,024-player event, then on 10,000 players × 10 rounds (wrk and redis-server
# come from Debian's packages); then the organizer's seating request of a 256-player round with
# nobody and with everyone subscribed to Web Push (bench/push_seating.py, issue 49: queueing the
# messages must not slow it); then the faults of `make chaos` (needs root: pg_ctlcluster); last,
# a tournament day at each field of DAY_PLAYERS — the knee, issue 67 (bench/day.py: the players'
# phones, a table's phone per four, the projector, the organizer, against one server on CPU 0
# with 512 MB, taskset and prlimit, the clients on CPU 1): each run prints its verdict, and
# `make load` fails if any missed, once all have run. The players' phones follow the standings
# as `make serve` serves them: by the stream (DAY_FOLLOW=poll for the poll alone). Ports are
# free ones by default;
# BENCH_PORT, BENCH_REDIS_PORT and BENCH_DB choose (a second run beside this one needs another
# BENCH_DB).
DAY_PLAYERS ?= 256 512 1024
DAY_FOLLOW ?= stream
load: $(BENCH_STAMP) pg-up
	@command -v wrk >/dev/null || apt-get install -y -q wrk >/dev/null 2>&1 || \
	  (apt-get update -q >/dev/null && apt-get install -y -q wrk >/dev/null)
	@command -v redis-server >/dev/null || apt-get install -y -q redis-server >/dev/null 2>&1 || \
	  (apt-get update -q >/dev/null && apt-get install -y -q redis-server >/dev/null)
	$(PY) -m bench.load
	$(PY) -m bench.load --players 10000 --rounds 10
	$(PY) -m bench.push_seating
	$(PY) -m bench.outage
	@status=0; for n in $(DAY_PLAYERS); do $(PY) -m bench.load --day --players $$n --follow $(DAY_FOLLOW) \
	  || status=1; done; \
	  exit $$status

# Three faults under load, one after another (bench/outage.py): Redis killed, PostgreSQL
# stopped, a gunicorn worker kill -9'ed, each in the middle of an organizer's saves; prints
# errors, lost writes and readers seeing older after newer (each targets 0). Needs root; it
# stops the machine's PostgreSQL, so nothing else can use that meanwhile.
chaos: $(BENCH_STAMP) pg-up
	@command -v redis-server >/dev/null || apt-get install -y -q redis-server >/dev/null 2>&1 || \
	  (apt-get update -q >/dev/null && apt-get install -y -q redis-server >/dev/null)
	$(PY) -m bench.outage

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m vulture

fmt: $(STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis db.sqlite3 staticfiles
