"""Report summaries built when a session ends, not on the report's request.

Before, the first class report after a lesson aggregated that lesson's
records on the teacher's request (seconds on a year of history). Now, when a
session ends, its per-pupil summaries are stored and the class report's
default view is drawn, after commit and on a background thread, so the
teacher's "Terminer" returns at once and the next report is a cache read.
A record that arrives later still drops the session's summaries
(``services.summaries.summaries_drop``): the next report stores them again.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import translation

from classroom import selectors
from classroom.models import ClassSession
from classroom.report_pages import class_report_body
from classroom.services.summaries import summaries_store

logger = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def session_summaries_build(*, class_session_id: int) -> int:
    """Store the session's per-pupil summaries (replacing any), then draw the
    class report's default view into the cache. Returns the number of rows.
    The session's records are all written: its tables ended with it."""
    class_session = (
        ClassSession.objects.select_related("school_class").filter(pk=class_session_id).first()
    )
    if class_session is None or class_session.ended_at is None:
        return 0
    stored = summaries_store(session_ids=[class_session_id])
    if not class_session.practice:
        # The page's body is what the teacher's next report reads from the cache.
        with translation.override(settings.LANGUAGE_CODE):
            report = selectors.class_report_cached(school_class=class_session.school_class)
            class_report_body(report)
    return stored


def _build_in_thread(class_session_id: int) -> None:
    close_old_connections()
    try:
        session_summaries_build(class_session_id=class_session_id)
    except Exception:  # pragma: no cover - logged; the report aggregates live instead
        logger.exception("summaries of session %s not built", class_session_id)
    finally:
        connection.close()


def _background() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            # One worker: sessions ending together are summarised one after
            # the other, never two writers racing on the same class.
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="summaries")
        return _executor


def session_summaries_schedule(*, class_session_id: int) -> None:
    """After commit (the session is really over), build its summaries: on a
    background thread, or at once when ``REPORT_SUMMARIES_IN_BACKGROUND`` is
    off."""

    def run() -> None:
        if settings.REPORT_SUMMARIES_IN_BACKGROUND:
            _background().submit(_build_in_thread, class_session_id)
        else:
            session_summaries_build(class_session_id=class_session_id)

    transaction.on_commit(run)


def summaries_wait(timeout: float = 60) -> None:
    """Wait until every scheduled build is done (the benchmark, the tests)."""
    if _executor is not None:
        marker: Future[None] = _executor.submit(lambda: None)
        marker.result(timeout=timeout)
