"""The site's settings, driven by the environment (healthchecks style).

DEBUG is off unless the environment turns it on, and then the defaults are the safe ones:
a SECRET_KEY must be given, cookies are secure, hosts are explicit. Nothing here asks whether
it runs under tests: the test suite has a settings module of its own (tests/settings.py,
pytest's DJANGO_SETTINGS_MODULE), which starts from this one and says what it changes.
"""

from __future__ import annotations

import os
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")
    SECRET_KEY = "insecure-development-key-never-use-in-production"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # Django's own form templates, found through TEMPLATES (see FORM_RENDERER)
    "django_tables2",
    "ninja",  # the read-only JSON API (tournament/api.py): its docs page's templates
    "corsheaders",
    "django_tasks",  # the task framework (Django 6's django.tasks, backported): issue 46
    "django_tasks_db",  # its queue kept in our database, run by `manage.py task_worker`
    # The country list and its names in Japanese (a player's country, issue 48): an app, so
    # Django finds its translations.
    "django_countries",
    "tournament",
]

# Background work (issue 46: the ratings' replay, off the results write): queued in the site's
# own database, SQLite or PostgreSQL, so nothing else needs installing; `make demo` and `make
# serve` run `manage.py task_worker` beside the server (tests/settings.py: the tests run a task
# as it is enqueued).
# The standings followed without polling (tournament/streams.py, issue 67): how often a
# process asks a followed page's tag (one query for all its phones), and the least time
# between two pages sent to one phone — together within the 5 s the pages promise.
# STREAMS: the site runs the stream beside its pages (`make serve` starts uvicorn and says so):
# only then do the standings pages open one (an EventSource elsewhere would only be refused).
STREAMS = envbool("STREAMS", False)
STREAM_LOOK_SECONDS = float(os.environ.get("STREAM_LOOK_SECONDS", "1"))
STREAM_GAP_SECONDS = float(os.environ.get("STREAM_GAP_SECONDS", "4"))

TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

# Web Push to players (issue 49, CONTRACT §7): the VAPID key pair (RFC 8292) that signs every
# message, made once and kept like SECRET_KEY — a new pair orphans every subscription made
# with the old one. The private key (base64url, 32 bytes: `python -m tournament.push_keys`)
# from the environment, else from the file `make serve` and `make demo` make once; the public
# key is derived from it. No key: the pages offer no notifications.
VAPID_KEY_FILE = Path(os.environ.get("VAPID_KEY_FILE", BASE_DIR / ".vapid-key"))
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip() or (
    VAPID_KEY_FILE.read_text().strip() if VAPID_KEY_FILE.is_file() else ""
)
# Who the push services may write to about our messages (RFC 8292 §2.1 `sub`).
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "")
# The push services a subscription's endpoint may name (host, or a domain it ends in): the
# site sends to no other address, so a made-up endpoint cannot aim it at a machine of the
# venue's network. Chrome's, Firefox's, Edge's and Safari's.
WEB_PUSH_SERVICES = envlist(
    "WEB_PUSH_SERVICES",
    "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
)
# A push service on this machine (http://127.0.0.1): the tests' stand-in only (tests/settings.py).
WEB_PUSH_LOCAL = False

# The organizer's channels (issue 49, services/channels.py): the apprise services an event's
# channel URLs may name (https://github.com/caronc/apprise/wiki). Discord, Slack and Telegram
# post to their own hosts; e-mail goes to the mail server the URL names, which must be a
# machine of the public internet (issue 63: checked when saved and again when sent). Services
# that post to any address (json://, form://) are left out all the same (the tests' stand-in
# endpoint adds json: tests/settings.py). A service added here is held to its URL's host
# unless services/channels.py OWN_HOSTS names it as posting to hosts of its own.
CHANNEL_SERVICES = envlist("CHANNEL_SERVICES", "discord,slack,tgram,mailto,mailtos")
# A channel on this machine (127.0.0.1, ::1): the tests' stand-in only (tests/settings.py).
CHANNEL_LOCAL = False

# The API is public and read-only: any site may GET it from a browser; nothing else is open.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")

MIDDLEWARE = [
    "tournament.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tournament.middleware.SecurityHeadersMiddleware",
    "tournament.middleware.ApiErrorsAsJsonMiddleware",
    # A NUL in the address or a form: 400 before anything reads it (PostgreSQL text holds none).
    "tournament.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # CORS for the read-only API (CORS_URLS_REGEX below); before CommonMiddleware, as its
    # documentation asks.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # An ETag on every GET answer, and 304 when the reader has it already (the API's promise).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Over DATA_UPLOAD_MAX_NUMBER_FILES: back to the form, told so, not a bare 400 (below).
    "tournament.middleware.TooManyFilesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite is the embedded default; PostgreSQL in production via DATABASE_URL.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        # A connection kept between requests is checked before a request reuses it: after
        # PostgreSQL came back, each app thread failed one more request on its dead connection
        # (issue 63: 9 of 9 in the first 13 s).
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's own, with the health check above asked of the socket, not the server
    # (tournament/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "tournament.postgresql"
    # Every public page costs its tag's one query (http_caching.py), the same few statements
    # again and again: PostgreSQL spent 0.35 ms planning each against 0.07–0.14 ms running it.
    # Bound on the server and prepared after five runs on a connection (psycopg's automatic
    # preparing, which Django turns off unless asked, for connection poolers' sake), a tag
    # query's round trip took 0.32–0.46 ms instead of 0.84–1.16 (docs/performance.md, issue 67).
    # DB_PREPARED=0 behind a pooler in transaction mode, which cannot keep them.
    if os.environ.get("DB_PREPARED", "1") == "1":
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            {"server_side_binding": True, "prepare_threshold": 5}
        )
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Every transaction takes SQLite's write lock when it begins (Django 5.1's option), waiting
    # up to `timeout` seconds for it: a transaction that read first and then wrote could not
    # wait — SQLite answers "database is locked" at once to the one that would deadlock — and a
    # seating posted while the task worker wrote answered 503 on a venue's laptop.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Part of every page's ETag (http_caching.py): set it per deploy so that phones holding
# a page from the last release fetch the new one (the package version otherwise).
RELEASE = os.environ.get("RELEASE", "")

# What readers share between two writes (rendered standings, downloads): each process's memory
# by default; with REDIS_URL, Redis through django-redis, so every app server behind the proxy
# shares one cache. `guesses`: the wrong-guess counts (services/throttle.py), an alias of their
# own so that pages filling `default` never evict one. If Redis stops answering, both go on in
# each process's memory until it is back (tournament/redis_cache.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "jansou")


def _cache(prefix: str, timeout: int, local_entries: int) -> dict[str, object]:
    if REDIS_URL:
        return {
            "BACKEND": "tournament.redis_cache.RedisCache",  # django-redis's; outages
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
            "TIMEOUT": timeout,
            "STAND_IN_ENTRIES": local_entries,  # the process's memory while Redis is away
            # A Redis that hangs costs a page a quarter of a second, not a worker's minute.
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.25},
        }
    return {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": prefix,
        "TIMEOUT": timeout,
        "OPTIONS": {"MAX_ENTRIES": local_entries},
    }


CACHES = {
    # Keys carry the event's version: an old one is never asked again.
    "default": _cache(CACHE_KEY_PREFIX, 3600, 1000),
    "guesses": _cache(f"{CACHE_KEY_PREFIX}:guesses", 15 * 60, 100_000),
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Japanese and English; the browser chooses, the switcher in the page overrides.
LANGUAGE_CODE = "en"
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
# Forms render through our templates: every field in one wrapper, so grids lay out whole fields.
FORM_RENDERER = "tournament.forms.renderer.FormRenderer"

LOCALE_PATHS = [BASE_DIR / "tournament" / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Tokyo")
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Development (and the tests) serve static files straight from static/; production from
# STATIC_ROOT.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Safe defaults when DEBUG is off (`manage.py check --deploy` passes with no warnings); each
# can be relaxed by the environment. The tests run plain HTTP: tests/settings.py turns PRODUCTION
# and what follows from it off.
PRODUCTION = not DEBUG
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", PRODUCTION)
# Sent only on HTTPS responses (SecurityMiddleware): a year, subdomains included.
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if PRODUCTION else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = envbool(
    "SECURE_HSTS_PRELOAD", True
)  # the directive; listing is a separate step
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind our own TLS proxy (nginx, a load balancer): trust its X-Forwarded-Proto for "is this
# HTTPS" and its X-Forwarded-For for the caller's address (log-in throttling).
BEHIND_PROXY = envbool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# No inline script or style anywhere (static/js, static/css), so the policy can say so.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

# What a person or a file can send at once (README "Reliability"): an event file is refused
# before it is parsed when larger; a paste of names when longer.
EVENT_FILE_MAX_BYTES = int(os.environ.get("EVENT_FILE_MAX_BYTES", str(20 * 1024 * 1024)))
PASTE_MAX_NAMES = int(os.environ.get("PASTE_MAX_NAMES", "10000"))
# Files in one form: a round of a large online qualifier's Tenhou logs (the upload's limit,
# services/tenhou.MAX_LOGS). Django's default, 100, refused 101–200 with a bare 400.
DATA_UPLOAD_MAX_NUMBER_FILES = 200

# Errors reach stderr with their traceback and the request id (what gunicorn and systemd
# collect), and mail to ADMINS when it is set ("Ann <ann@example.org>, bob@example.org").
ADMINS = [parseaddr(a) for a in envlist("ADMINS", "")]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "root@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
# Sign-up's e-mails (issue 50) go from here; `make demo` (DEBUG) prints them to the console
# instead of sending, unless EMAIL_BACKEND says otherwise (tests/settings.py: Django's locmem).
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", SERVER_EMAIL)
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
# The site's address for links in e-mails sent by the queue (https://example.org); empty: the
# address the player signed up at.
SITE_URL = os.environ.get("SITE_URL", "")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "tournament.middleware.RequestIdFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        # An outage mails its start and its end itself, from a thread (tournament/outages.py).
        "not_an_outage": {"()": "tournament.outages.NotAnOutage"},
        # An outage's 503 and an answer remade as the API's JSON: not logged per answer, nor
        # twice (tournament/middleware.py).
        "answer_logged_once": {"()": "tournament.middleware.AnswerLoggedOnce"},
    },
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "line",
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "not_an_outage", "request_id"],
        },
    },
    "loggers": {
        # Server errors (5xx) with their traceback; 4xx answers are a person's typo, not ours.
        # Not on to Django's own "django" logger, which would mail the same error again.
        "django.request": {
            "handlers": ["stderr", "mail_admins"],
            "filters": ["answer_logged_once"],
            "level": "ERROR",
            "propagate": False,
        },
        "django.security": {
            "handlers": ["stderr", "mail_admins"],
            "level": "WARNING",
            "propagate": False,
        },
        "tournament": {"handlers": ["stderr", "mail_admins"], "level": "INFO"},
    },
}
