"""Limits on picture-code guessing: constants only, so a service that counts
wrong codes and a selector that lists attacked cards read the same numbers
without one importing the other."""

from __future__ import annotations

from datetime import timedelta

# Picture-code guessing (issue 44, item 3). Three limits, each keyed so that
# nobody can use it to lock a class out:
#
# - **Per joining tablet** (its session), across every card of the class:
#   ``DEVICE_FREE`` wrong codes are checked at once; then one check per
#   ``DEVICE_SLOW_SECONDS``; at ``DEVICE_STOP`` wrong codes the tablet is
#   stopped for the class ("Demande à ton maître ou ta maîtresse") for
#   ``PICTURE_WINDOW``. A right code forgives the tablet's own slips.
# - **Per network** (IPv4 address, IPv6 /64) and class, counting only wrong
#   codes of tablets that never got in (a child's slips are forgiven by their
#   right code): ``NET_FREE`` per ``PICTURE_WINDOW`` at once, then one check
#   per ``NET_SLOW_SECONDS`` for that class from that network. A slowed request
#   is answered "attends" whatever its code, so waiting tells a guesser nothing.
# - **Per card**, the escalating lock: the 5th wrong code in a row locks it for
#   1 minute, then 5, then 15 minutes, then until the teacher unlocks it. Only
#   wrong codes checked *within* a tablet's and a network's free budget count
#   on a card: ``DEVICE_FREE`` is below ``PICTURE_MAX_FAILURES``, so one tablet
#   can never lock a card, and one network at most ``NET_FREE //
#   PICTURE_MAX_FAILURES`` cards a window; the card lock is there for guessers
#   spread over many networks.
#
# A teacher's unlock of one card leaves the tablet and network counters alone
# and leaves the card one wrong code from the teacher-only lock
# (``UNLOCK_SPARE``): an unlock gives a guesser one try, not 5. The one-click
# "unlock all" also lifts the class's network slow-down: children whose own
# slips ran the network's budget out must never wait two hours for a teacher
# standing beside them (it gives a guesser at most ``NET_FREE`` more codes,
# while the class page shows the cards attacked).
# README, "Limits", has the arithmetic (checked by tests/classroom/test_readme_limits.py).
PICTURE_MAX_FAILURES = 5
PICTURE_LOCK_STEPS = (60, 5 * 60, 15 * 60)  # then: the teacher only
TEACHER_ONLY_LEVEL = len(PICTURE_LOCK_STEPS) + 1
UNLOCK_SPARE = 1
PICTURE_WINDOW = 24 * 60 * 60
DEVICE_FREE = 4
DEVICE_SLOW_SECONDS = 60
DEVICE_STOP = 5  # below NET_FREE: one tablet alone never slows its network
# Room for a class's own slips at the start of a lesson: 25 six-year-olds tap at
# once, and every tablet is an orphan until its right code (issue 44 review).
NET_FREE = 10
NET_SLOW_SECONDS = 2 * 60 * 60
# A card counts as "recently attacked" for the teacher this long after a wrong code.
ATTACK_MEMORY = timedelta(hours=1)
