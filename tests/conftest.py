"""Project-wide test setup."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _asgi_loaded(request: pytest.FixtureRequest) -> None:
    """The ASGI application is imported once, before any test runs. Importing
    it sets Django up again (``get_asgi_application``), which configures
    logging again and so drops the handler pytest's ``caplog`` had put on the
    root logger: the first test to open a socket lost every log record it
    asserted on, depending on which tests had run before it."""
    if request.config.pluginmanager.hasplugin("django"):
        import config.asgi  # noqa: F401


@pytest.fixture(autouse=True)
def _fast_bots(request: pytest.FixtureRequest) -> None:
    """Bots answer at once in tests; the human-like delay is for children.

    Engine tests also run without Django (``-p no:django``), so the settings
    fixture is only asked for when pytest-django is loaded."""
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.BOT_DELAY_RANGE = (0.0, 0.0)
        settings.SIMULTANEOUS_BOT_DELAY_RANGE = (0.0, 0.0)
        # A session's report summaries are built on commit, in the test's
        # own thread (no background thread outliving the test's database).
        settings.REPORT_SUMMARIES_IN_BACKGROUND = False


@pytest.fixture(autouse=True)
def _no_stray_robot_threads(request: pytest.FixtureRequest) -> None:
    """Outside an event loop (a view, a factory, a management command) a table's
    robots are played by a timer thread (``runtime._schedule_in_thread``).
    In a test, with robots answering at once, that thread ran beside the test
    that started the table and could outlive it: after the test the database
    is closed to it (pytest-django's ``PytestUnhandledThreadExceptionWarning``
    in ``make test``), or the next test's tables are its to play. So no such
    thread starts in a test unless it is marked ``robot_timer_threads``
    (``test_runtime`` tries the real path); the others play their robots
    themselves (``bot_turns``) or through a socket's event loop."""
    if not request.config.pluginmanager.hasplugin("django") or request.node.get_closest_marker(
        "robot_timer_threads"
    ):
        return
    from cardgames import runtime

    monkeypatch = request.getfixturevalue("monkeypatch")
    monkeypatch.setattr(runtime, "_schedule_in_thread", lambda table_id, at: None)


@pytest.fixture(autouse=True)
def _french_by_default(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test starts in French, the product's language. A request with
    another Accept-Language leaves its language active on the thread, which
    would otherwise leak into the next test. (Not for the engine tests run
    without Django, ``-p no:django``: they have no settings to translate with.)"""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    with translation.override("fr"):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """pytest-django's test databases, and one more step before it drops them:
    on PostgreSQL, end the sessions the live path's own threads still hold.

    The database threads (``cardgames.dbwork``) and the table readers
    (``live_screens``) each keep a connection of their own, as they do in a
    worker, which closes them when the process ends. A test run ends with
    those threads idle but their sessions open, so PostgreSQL refused to drop
    the test database ("being accessed by other users") and a warning ended
    every run. Only sessions on the test database are ended."""
    yield
    import warnings

    from django.db import DatabaseError, connections

    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            try:
                with connection.cursor() as cursor:
                    # Only this run's own sessions: a role that is not a
                    # superuser may not end others' (autovacuum, other roles).
                    cursor.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        " AND usename = current_user AND backend_type = 'client backend'"
                    )
            except DatabaseError as exc:  # as pytest-django treats a failed teardown
                warnings.warn(f"could not end the test database's sessions: {exc}", stacklevel=1)
            connection.close()
