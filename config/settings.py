"""One settings module, read from the environment (twelve-factor).

The embedded default needs no service: SQLite in WAL mode and the in-memory
channel layer. ``DATABASE_URL`` switches to PostgreSQL, ``REDIS_URL`` to
channels-redis, and ``DJANGO_ENV=production`` turns on the secure settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import environ
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
PRODUCTION = DJANGO_ENV == "production"
TESTING = env.bool("TESTING", default=False)

DEBUG = env.bool("DJANGO_DEBUG", default=not PRODUCTION)
# A development key is fine off production; production refuses to start without one.
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY", default="" if PRODUCTION else "dev-only-insecure-key-change-me-00000000000000000"
)
if PRODUCTION and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set to a random string of 50+ characters.")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "csp",
    "cardgames",
    "classroom",
    # The project itself, for its ``serve`` command (config/management): how
    # the workers are started is the project's business, not a game's.
    "config",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # django-csp, with the policy on error pages in DEBUG too (config/csp.py).
    "config.csp.CSPEveryResponseMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A language chosen for the session (a class's tablets) wins over the browser's.
    "cardgames.i18n.SessionLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-out visitor on a teacher page is sent to sign in, then back.
    "classroom.teacher_signin.TeacherSignInMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Axes must come last: it reads the outcome of authentication.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The live table templates are squeezed once when loaded
            # (config/template_loaders.py); cached in every environment.
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "config.template_loaders.Loader",
                        "django.template.loaders.app_directories.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "csp.context_processors.nonce",
            ],
        },
    }
]

# --------------------------------------------------------------------- data
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db_url("DATABASE_URL")}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Bounded connections, whatever the number of sockets and threads: every
    # worker process holds at most DB_POOL_MAX_SIZE connections (Django 5.2's
    # psycopg pool). A connection goes back to the pool after each request and
    # after each websocket handler's database call, and a thread that finds the
    # pool empty waits (DB_POOL_TIMEOUT seconds) instead of opening one more.
    # Without it, every request thread kept its own connection (CONN_MAX_AGE)
    # and two workers at school scale took 92 of PostgreSQL's 100 connections
    # ("sorry, too many clients already"). N workers need N x DB_POOL_MAX_SIZE
    # connections, plus one per management command (see docs/deploy.md).
    DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=8)
    if DB_POOL_MAX_SIZE > 0 and "postgresql" in DATABASES["default"]["ENGINE"]:
        # The pool replaces persistent connections (Django refuses both at once).
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN_SIZE", default=2),
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": env.float("DB_POOL_TIMEOUT", default=20.0),
            # Idle connections above min_size are closed after 5 minutes.
            "max_idle": 300.0,
        }
        # psycopg_pool retries a failed connection after 1, 2, 4, 8 s (up to
        # 10 s): after a 5 s PostgreSQL restart, moves waited for the pool's
        # next attempt and were acknowledged seconds after it was back.
        # A connection attempt to a stopped server is refused at once, so
        # trying again every DB_RECONNECT_SECONDS costs nothing and the first
        # move after the restart goes through (psycopg_pool has no option).
        from psycopg_pool.base import AttemptWithBackoff

        AttemptWithBackoff.INITIAL_DELAY = env.float("DB_RECONNECT_SECONDS", default=0.25)
        AttemptWithBackoff.DELAY_BACKOFF = 1.0  # the same short wait each time
    else:
        # No pool (e.g. behind pgbouncer): reuse each thread's connection.
        DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    # Moves, robots and connects of different tables run side by side on this
    # many threads per worker (cardgames/dbwork.py), each holding one pooled
    # connection while it works: with the 2 snapshot readers and the HTTP
    # thread, 4 fit in the default pool of 8.
    CARDGAMES_DB_THREADS = env.int("DB_THREADS", default=4)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3")),
            # Keep each thread's connection: opening one re-runs the PRAGMAs below,
            # and Channels wraps every database call in a connection check.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                # IMMEDIATE takes the write lock when a transaction starts, so two
                # writers queue behind the busy timeout instead of failing with
                # "database is locked" halfway through a move.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;"
                    "PRAGMA synchronous=NORMAL;"
                    "PRAGMA busy_timeout=20000;"
                    "PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
CHANNEL_LAYERS: dict[str, Any]
if REDIS_URL:
    # Two defaults of the installed redis client (redis-py 6+, here 8.x) break
    # channels_redis 4.3 at school scale, so both are set here:
    # - ``ConnectionPool`` now defaults to ``max_connections=100`` (it used to be
    #   unbounded) and raises ``MaxConnectionsError: Too many connections`` as
    #   soon as 101 commands are in flight: a school's tablets connecting at
    #   once each run ``group_add``, and most were refused with HTTP 500. Our
    #   layer uses a *blocking* pool instead (config/channel_layer.py): at most
    #   REDIS_MAX_CONNECTIONS per worker, and a command waits for a free
    #   connection rather than failing.
    # - ``socket_timeout`` now defaults to 5 s, exactly channels_redis'
    #   ``BZPOPMIN`` wait (``brpop_timeout = 5``): when no message came for 5 s
    #   the client gave up reading first, raised ``Timeout reading from``, and the
    #   worker's receive loop closed every socket waiting on it, so idle tablets
    #   dropped. The read timeout must outlast the blocking wait.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": env.int("REDIS_MAX_CONNECTIONS", default=64),
                        # Wait this long for a free pooled connection.
                        "timeout": 20,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 5,
                        # A connection idle for 30 s is pinged before reuse (Redis restarted?).
                        "health_check_interval": 30,
                    }
                ],
                "capacity": 1500,
                "expiry": 30,
            },
        }
    }
    CACHES = {
        # One client and pool per process, not per socket (config/cache.py).
        "default": {"BACKEND": "config.cache.SharedRedisCache", "LOCATION": REDIS_URL}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --------------------------------------------------------------------- auth
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # The browser that signed up keeps its draft account until the address is
    # proven (classroom/auth_backends.py); it authenticates no password.
    "classroom.auth_backends.DraftTeacherBackend",
]
LOGIN_URL = "classroom:login"
LOGIN_REDIRECT_URL = "classroom:dashboard"
LOGOUT_REDIRECT_URL = "home"

# Teacher brute-force protection (django-axes): 5 failures per account and IP
# lock the pair for 15 minutes. A whole school shares one IP, so never lock by
# IP alone.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "classroom/teacher/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Chasse aux Souris <noreply@localhost>")
# Sign-up and password-reset mails, together, per hour (classroom/accounts.py):
# nobody's mailbox can be flooded through our forms (issue 44, finding 11).
# One IP asking for one address gets 3; an address gets at most 10 from everywhere,
# so a stranger cannot spend a teacher's reset mails.
ACCOUNT_MAILS_PER_ADDRESS_AND_IP_PER_HOUR = env.int(
    "ACCOUNT_MAILS_PER_ADDRESS_AND_IP_PER_HOUR", default=3
)
ACCOUNT_MAILS_PER_ADDRESS_PER_HOUR = env.int("ACCOUNT_MAILS_PER_ADDRESS_PER_HOUR", default=10)
ACCOUNT_MAILS_PER_IP_PER_HOUR = env.int("ACCOUNT_MAILS_PER_IP_PER_HOUR", default=10)
# Draft accounts (a sign-up not yet confirmed) one network may make per hour:
# a school's teachers signing up together fit; a flood makes no rows.
TEACHER_DRAFTS_PER_IP_PER_HOUR = env.int("TEACHER_DRAFTS_PER_IP_PER_HOUR", default=30)
# Activation and password-reset links expire after 3 days (and work once).
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24 * 3

# A pupil stays signed in for a school day on a shared tablet.
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=60 * 60 * 10)

# --------------------------------------------------------------------- i18n
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("Français")), ("de", _("Deutsch")), ("en", _("English"))]
# English dates day first, month in words (config/formats/en/formats.py says why).
FORMAT_MODULE_PATH = ["config.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Paris")
USE_I18N = True
USE_TZ = True

# --------------------------------------------------------------------- static
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --------------------------------------------------------------------- game loop
# Bots wait a human-like moment before playing, so children can follow.
BOT_DELAY_RANGE = (
    env.float("BOT_DELAY_MIN", default=1.0),
    env.float("BOT_DELAY_MAX", default=2.5),
)
# In games where everyone acts at once (Purrfect), a bot's pause between two of
# its own moves: long enough for children to read the table and trade too.
SIMULTANEOUS_BOT_DELAY_RANGE = (
    env.float("SIMULTANEOUS_BOT_DELAY_MIN", default=4.0),
    env.float("SIMULTANEOUS_BOT_DELAY_MAX", default=8.0),
)
# When a session ends, its report summaries are built after commit on a
# background thread (the teacher's click returns at once); False builds them
# on commit in the same thread (the tests, to stay deterministic).
REPORT_SUMMARIES_IN_BACKGROUND = env.bool("REPORT_SUMMARIES_IN_BACKGROUND", default=True)
# Largest websocket message a table accepts; anything bigger is refused politely.
WS_MAX_MESSAGE_BYTES = 16 * 1024
# Deeper JSON is refused unread (cardgames/wire.py); our forms nest 2 deep.
WS_MAX_JSON_DEPTH = 8
# The server's own limit, a little above the app's: a message slightly too big
# still gets the app's polite refusal, a far bigger frame is refused by the
# server (close 1009) before it is buffered. uvicorn gets it from
# ``manage.py serve``.
WS_SERVER_MAX_BYTES = WS_MAX_MESSAGE_BYTES + 4 * 1024
# Daphne's runserver (``make run``) applies its limit to what it *sends* too
# (autobahn), and a whole Picktura screen is over 20 KB: its limit is the
# largest screen with room to spare. A frame above it is still refused unread.
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = 256 * 1024
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = 256 * 1024
# Messages per socket (cardgames/socket_budget.py says why these numbers).
WS_BUDGET_BURST = 30
WS_BUDGET_PER_SECOND = 8.0
WS_BUDGET_CLOSE_AFTER = 90
WS_BUDGET_CLOSE_WINDOW = 10.0
# Who sits where at a table: cardgames asks this function (see cardgames/access.py).
CARDGAMES_TABLE_ACCESS = env.str("CARDGAMES_TABLE_ACCESS", default="classroom.access.table_access")
# The teacher's "Rejouer" at the end of a game (a new game, same seats).
CARDGAMES_REMATCH_URL_NAME = "classroom:table_rematch"
# A seated player's "Ce n'est pas moi" on the table page (shared tablets).
CARDGAMES_SIGN_OUT_URL_NAME = "classroom:pupil_sign_out"
# The teacher's way back from a table's page to the live view of its lesson.
CARDGAMES_TEACHER_BACK_URL_NAME = "classroom:table_monitor"
# A solo-practice login on a shared tablet ends after this much inactivity
# (its game goes on over its socket; the next page asks who you are).
PRACTICE_LOGIN_IDLE_SECONDS = env.int("PRACTICE_LOGIN_IDLE_SECONDS", default=20 * 60)
# A lesson nobody touched for this long (no join, no sign-in, no move) is over:
# its join code lets nobody in, and ``purge`` ends it (tables, tablets, sockets).
LESSON_IDLE_HOURS = env.float("LESSON_IDLE_HOURS", default=4)
# How long a socket-revocation generation stays in the cache
# (``cardgames/revocation.py``): longer than any login; a lost one costs a
# database re-check, never a wrong answer.
CARDGAMES_GENERATION_TTL_SECONDS = env.int("CARDGAMES_GENERATION_TTL_SECONDS", default=60 * 60 * 24)

# --------------------------------------------------------------------- security
if PRODUCTION:
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# A strict Content-Security-Policy in every mode (development and tests too,
# so the browser tests see what production serves): scripts and styles only
# from our own static files or carrying the per-response nonce (the inline
# <style> of the report charts), no plugins, no <base>, never framed. Page
# behaviour lives in static/js/app.js, never in inline handlers.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        # The pupils' service worker (/sw.js) and manifest, both our own.
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# Retention (README, "What is kept, and for how long"): ``manage.py purge``.
RETENTION_STALE_PRACTICE_HOURS = env.int("RETENTION_STALE_PRACTICE_HOURS", default=12)
RETENTION_LOG_DAYS = env.int("RETENTION_LOG_DAYS", default=30)
RETENTION_TABLET_LABEL_DAYS = env.int("RETENTION_TABLET_LABEL_DAYS", default=7)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    # Django's own loggers (and the development server's) come with a console
    # handler of their own and also reach the root's: every line was printed
    # twice. They keep their levels and print through the root only.
    "loggers": {
        **{
            name: {"handlers": [], "propagate": True}
            for name in ("django", "django.server", "django.channels.server")
        },
        # The pool says "error connecting" every 0.25 s while PostgreSQL is away;
        # ``cardgames.liveness`` says it once per outage, readably.
        "psycopg.pool": {"level": "ERROR"},
    },
}
