"""A move's receivers after the mover's own screen.

``action_submit`` sends ``actions_applied`` (and ``table_finished``) on commit.
In a lesson that writes the pupil's learning record: a read and a short
transaction on the worker's database thread. Run there and then, the pupil
who moved saw their new screen last of the whole table: their socket's reply
waited for the record while the other screens, drawn from the broadcast, went
out first, and the record shared the GIL with those screens' renders.

A caller that answers a socket (``TableConsumer``) opens
:func:`receivers_after_reply` around the move: the receivers of the moves that
this thread commits inside it are queued instead of run, and the caller runs
them with :func:`receivers_run` once the mover's screen is sent. The caller
awaits them in the same handler, before the socket's next message, so nothing
is left running detached (no task to cancel at a worker's or a test's end)
and a socket's moves are still recorded in their order. Everyone else (bots,
timers, management commands, tests calling ``action_submit``) runs them on
commit, as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

logger = logging.getLogger(__name__)

Receivers = Callable[[], None]

_local = threading.local()


@contextmanager
def receivers_after_reply() -> Iterator[list[Receivers]]:
    """Queue, in the list yielded, the receivers of the moves this thread
    commits inside the block; the caller must run them (``receivers_run``)."""
    queued: list[Receivers] = []
    outer = getattr(_local, "queued", None)
    _local.queued = queued
    try:
        yield queued
    finally:
        _local.queued = outer


def receivers_dispatch(receivers: Receivers) -> None:
    """Called on commit: run ``receivers`` now, or queue them for the caller
    that asked to run them after its reply."""
    queued: list[Receivers] | None = getattr(_local, "queued", None)
    if queued is None:
        receivers()
    else:
        queued.append(receivers)


GroupSend = tuple[str, dict[str, Any]]


def receivers_run(*, receivers: Sequence[Receivers]) -> list[GroupSend]:
    """Run queued receivers, in order. The move is committed and shown: a
    failure is logged, never raised to the socket (the signals' own
    ``send_robust`` already keeps one receiver's error from the others).

    Returns the channel-layer sends the receivers asked for
    (:func:`group_send_after_reply`), for the caller to make on its event
    loop, in order, awaited in the same handler."""
    sends: list[GroupSend] = []
    _local.sends = sends
    try:
        for run in receivers:
            try:
                run()
            except Exception:
                logger.exception("a move's receivers failed after the reply")
    finally:
        _local.sends = None
    return sends


def group_send_after_reply(*, group: str, message: dict[str, Any]) -> bool:
    """Inside :func:`receivers_run`: leave a channel-layer send to its caller,
    which makes it on the event loop once the receivers are done, and say so
    (``True``). Outside (bots, timers, scripts): ``False``, send it yourself.

    A receiver that sent from the database thread (``async_to_sync``) held
    that thread until the event loop had taken the send: the learning record's
    push to the teacher's monitor kept every other table's next move waiting
    on a loop busy drawing and sending screens."""
    sends: list[GroupSend] | None = getattr(_local, "sends", None)
    if sends is None:
        return False
    sends.append((group, message))
    return True
