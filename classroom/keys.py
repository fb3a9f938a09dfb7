"""The opaque keys under which ``cardgames`` knows classroom things.

``cardgames`` never sees a pupil or a class session: a seat holds a player key
(``"pupil:<id>"``) and a table a group key (``"session:<id>"``). Building and
reading them here, once, keeps every caller agreeing on the format."""

from __future__ import annotations

from cardgames.parsing import whole_number

PUPIL = "pupil"
SESSION = "session"


def pupil_key(pupil_id: int) -> str:
    return f"{PUPIL}:{pupil_id}"


def session_key(session_id: int) -> str:
    return f"{SESSION}:{session_id}"


def _id_from_key(key: object, prefix: str) -> int | None:
    if not isinstance(key, str):
        return None
    head, sep, rest = key.partition(":")
    if head != prefix or not sep:
        return None
    return whole_number(rest, max_digits=18) if rest == rest.strip() else None


def pupil_id_from_key(key: object) -> int | None:
    """``"pupil:42"`` → 42; anything else (a bot, a stranger's key) → ``None``."""
    return _id_from_key(key, PUPIL)


def session_id_from_key(key: object) -> int | None:
    """``"session:7"`` → 7; anything else → ``None``."""
    return _id_from_key(key, SESSION)
