"""Every line of the server's log is printed once.

Django's loggers carried a console handler of their own and also reached
the root's, so under ``make run`` every request line and every "Not Found"
was printed twice."""

from __future__ import annotations

import logging

import pytest


@pytest.mark.parametrize(
    "name", ["django.request", "django.server", "django.channels.server", "cardgames", "classroom"]
)
def test_a_record_meets_exactly_one_handler(name: str) -> None:
    logger: logging.Logger | None = logging.getLogger(name)
    handlers = 0
    while logger is not None:
        # pytest's own capturing handlers sit on the root during tests.
        handlers += sum(1 for h in logger.handlers if not type(h).__module__.startswith("_pytest"))
        if not logger.propagate:
            break
        logger = logger.parent
    assert handlers == 1
