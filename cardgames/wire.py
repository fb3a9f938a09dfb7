"""Reading one websocket message, one rule for every consumer.

A message from a tablet or a teacher's page is a small JSON object (htmx's ws
extension sends a form's fields, plus its ``HEADERS`` object). Anything else is
refused here, before a consumer looks at it, with a refusal *code* the consumer
turns into its own words (a child's or a teacher's):

- ``too_big``: more than ``settings.WS_MAX_MESSAGE_BYTES`` (the server itself
  closes the socket on far bigger frames: ``settings.WS_SERVER_MAX_BYTES``);
- ``malformed``: not JSON, not an object, ``NaN``/``Infinity``, or nested deeper
  than ``settings.WS_MAX_JSON_DEPTH``.

Why the depth is counted first: ``json.loads`` recurses once per ``[`` or ``{``,
so ``"[" * 5000`` (5 KB, well under the size limit) raised ``RecursionError``,
which is no ``ValueError``: it reached the consumers' last-resort handler and
logged a whole traceback for every such message. The count below is a loop,
not a recursion, and skips brackets inside strings.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings

# A JSON string (its end optional: an unterminated one runs to the end of the
# text, matched in one go), or one bracket. Unrolled so that it never backtracks.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
_OPENING = frozenset("[{")


class WireRefused(ValueError):
    """A message refused before any consumer read it; ``code`` names why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity``: Python reads them, JSON has no such thing."""
    raise WireRefused("malformed")


def too_deep(text: str, max_depth: int) -> bool:
    """Whether ``text`` nests arrays and objects more than ``max_depth`` deep,
    counting only brackets outside strings. Most messages hold fewer opening
    brackets than the limit at all and are not scanned."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in _OPENING:
            depth += 1
            if depth > max_depth:
                return True
        elif token in ("]", "}"):
            depth -= 1
    return False


def message_parse(
    text: str | None, *, max_bytes: int | None = None, max_depth: int | None = None
) -> dict[str, Any]:
    """The message as a dict, or ``WireRefused``. ``text`` is ``None`` for a
    binary frame, which no page of ours sends."""
    if not isinstance(text, str):
        raise WireRefused("malformed")
    limit = int(settings.WS_MAX_MESSAGE_BYTES if max_bytes is None else max_bytes)
    # Characters first (cheap), then the bytes they make (up to 4 per character).
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise WireRefused("too_big")
    if too_deep(text, int(settings.WS_MAX_JSON_DEPTH if max_depth is None else max_depth)):
        raise WireRefused("malformed")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        # ValueError: not JSON, or a number of more than 4300 digits.
        # RecursionError: cannot happen below the depth limit; kept so that no
        # message can ever log a traceback.
        raise WireRefused("malformed") from exc
    if not isinstance(data, dict):
        raise WireRefused("malformed")
    return data


def message_decode(text_data: str | None, bytes_data: bytes | None = None) -> dict[str, Any]:
    """A socket's ``receive`` arguments as the message dict, or ``WireRefused``:
    the one decoder every consumer uses. A binary frame is refused (no page of
    ours sends one), then the text is read by ``message_parse``."""
    return message_parse(None if bytes_data is not None else text_data)
