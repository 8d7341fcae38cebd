"""The test suite's settings (pytest's DJANGO_SETTINGS_MODULE, pyproject.toml).

The site's own settings (tournament/settings.py), read as production reads them, then what the
tests change — each line says why. The site's settings never ask whether they run under tests
(cookiecutter-django's config/settings/test.py does the same; ../shared/STYLE.md). DATABASE_URL
still chooses the database: `make test` runs the Django suite on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import os
from unittest import mock

# Production settings refuse to load without a SECRET_KEY unless DEBUG is on: read them with
# the tests' key, DEBUG off and no REDIS_URL (the cache in each process's memory; tests that
# need a Redis start their own: tests/redis_support.py), whatever the shell says, and leave the
# environment as it was — a process a test starts (manage.py check --deploy) gets none of it.
read_with = {"SECRET_KEY": "tests-only-key-" + "x" * 40, "DEBUG": "", "REDIS_URL": ""}
with mock.patch.dict(os.environ, read_with):
    from tournament.settings import *  # noqa: F403 (every setting, then the changes below)
    from tournament.settings import CHANNEL_SERVICES

# A password hashed once, cheaply: production's PBKDF2 at a million iterations costs 0.3 s a
# hash on this machine, and the suite makes users in 150-odd places (Django's "Speeding up
# the tests"). The log-in tests that count guesses run once more with production's hasher
# (marked slow: `make test-slow`).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A task runs as it is enqueued (after the write's commit), in the test's own process: no
# worker to start. Tests of the queue itself choose the database backend (test_ratings_queue).
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["default"],
    }
}

# Mail kept in django.core.mail.outbox.
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Tests make their own VAPID keys (the `vapid` fixture): a `make demo` run before them, which
# keeps one in .vapid-key, must not change what they see.
VAPID_PRIVATE_KEY = ""
# The stand-in push service and webhook listen on http://127.0.0.1 (tests/tournament/stand_in.py):
# allowed here, never in production.
WEB_PUSH_LOCAL = True
CHANNEL_SERVICES = [*CHANNEL_SERVICES, "json"]
CHANNEL_LOCAL = True  # this machine only, never the venue's network (test_channels.py)

# Plain HTTP on a test server, static files straight from static/ (never collected).
PRODUCTION = False
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# As in development: whitenoise looks a static file up when it is asked for. Without
# autorefresh it lists every file of static/ when its middleware starts — once per test
# Client, 1,200 times a run: a fifth of the Django suite's time went there.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
