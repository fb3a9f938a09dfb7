"""Settings come from the environment; production passes Django's deploy check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, check=False
    )


def test_production_settings_pass_the_deploy_check() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DJANGO_ENV": "production",
            "DJANGO_SECRET_KEY": "x" * 20 + "a-long-random-production-secret-0123456789-abcdefghij",
            "DJANGO_ALLOWED_HOSTS": "classe.example.org",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = _manage("check", env={"DJANGO_ENV": "production", "DJANGO_SECRET_KEY": ""})
    assert result.returncode != 0


def test_database_url_switches_to_postgresql_and_redis_url_to_channels_redis() -> None:
    code = (
        "from django.conf import settings as s;"
        "from channels.layers import get_channel_layer;"
        "from channels_redis.core import RedisChannelLayer;"
        "layer = get_channel_layer(); pool = layer.create_pool(0);"
        "d = s.DATABASES['default'];"
        "print(d['ENGINE'], d['CONN_MAX_AGE'], d['OPTIONS']['pool']['max_size']);"
        "print(isinstance(layer, RedisChannelLayer), type(pool).__name__, pool.max_connections);"
        "print(pool.connection_kwargs['socket_timeout'] > layer.brpop_timeout)"
    )
    clean = {k: v for k, v in os.environ.items()}
    clean.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "DB_POOL_MAX_SIZE": "6",
        }
    )
    clean.pop("CONN_MAX_AGE", None)
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();" + code],
        cwd=ROOT, env=clean, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    # PostgreSQL through a bounded pool (6 connections per worker, no persistent ones).
    assert out[0] == "django.db.backends.postgresql 0 6"
    # channels_redis, on a bounded pool that waits instead of failing when busy...
    assert out[1] == "True BlockingConnectionPool 64"
    # ...whose reads outlast channels_redis' 5-second BZPOPMIN (idle sockets stay).
    assert out[2] == "True"


def test_embedded_default_is_sqlite_wal_immediate_with_in_memory_layer() -> None:
    code = (
        "from django.conf import settings as s;"
        "from django.db import connection;"
        "o = s.DATABASES['default']['OPTIONS'];"
        "print(s.DATABASES['default']['ENGINE'], o['transaction_mode'], o['timeout'] >= 5);"
        "cur = connection.cursor(); cur.execute('PRAGMA journal_mode'); print(cur.fetchone()[0]);"
        "print(s.CHANNEL_LAYERS['default']['BACKEND'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "SQLITE_PATH": str(ROOT / ".pytest_cache" / "wal-check.sqlite3")})
    (ROOT / ".pytest_cache").mkdir(exist_ok=True)
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();" + code],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout.split("\n")
    assert out[0] == "django.db.backends.sqlite3 IMMEDIATE True"
    assert out[1] == "wal"
    assert out[2] == "config.channel_layer.InMemoryChannelLayer"


def test_french_is_the_default_language_with_german_and_english() -> None:
    assert settings.LANGUAGE_CODE == "fr"
    assert [code for code, _ in settings.LANGUAGES] == ["fr", "de", "en"]
