"""A screen cut into units, and what a socket must be sent to show it.

A rendered view (``rendering.render_fragments``) is a :class:`Screen`: the
whole live area, sent on connect and on resync, cut into *units*, the elements
marked ``id="…" data-unit`` in the templates (a player's line, the total, the
hand, the log…). After a move a socket is sent only the units that differ from
what it shows (``Screen.update``), each as an htmx out-of-band swap; a list of
lines inside a unit (``data-items``) is sent only its new lines. Anything
outside the units that changed (the skeleton) sends the whole area again, so a
game without units still works. ``apply_update`` does what htmx does with a
message, for the tests and the load test.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache

# The units of a rendered view: ``<tag id="…" data-unit`` (id first, always).
_UNIT = re.compile(r'<([a-z][a-z0-9]*) id="([^"]+)" data-unit\b')
_MAIN_TAG = re.compile(r'<section id="table-main"[^>]*>')
_OOB = ' hx-swap-oob="true"'
_UNIT_MARK = " data-unit"


def _element_end(html: str, start: int, tag: str) -> int:
    """Where the element opened at ``start`` closes (same-name nesting counted).

    By ``str.find`` and ``str.count``, which run in C: a screen is cut into
    units here, and a line list into lines, for every socket after every move;
    done with a regular expression stepping through each tag, this cutting was
    a large part of a screen's cost (``docs/performance.md``). The
    templates are squeezed (``config/template_loaders.py``): an opening tag is
    ``<name `` or ``<name>``, a closing one ``</name>``, and no element that is
    cut here closes itself (``<name/>``)."""
    spaced, bare, closing = f"<{tag} ", f"<{tag}>", f"</{tag}>"
    depth = 0
    position = start
    while True:
        close = html.find(closing, position)
        if close < 0:
            return len(html)
        depth += html.count(spaced, position, close) + html.count(bare, position, close) - 1
        position = close + len(closing)
        if depth <= 0:
            return position


def _units(html: str) -> list[tuple[str, int, int]]:
    """The top-level units of ``html`` (id, start, end), in order; a unit
    inside another is part of it. Each ``data-unit`` mark is found with
    ``str.find`` from the end of the previous unit, so the inside of a unit is
    never searched."""
    found: list[tuple[str, int, int]] = []
    position = 0
    while (mark := html.find(_UNIT_MARK, position)) >= 0:
        opened = html.rfind("<", position, mark)
        match = _UNIT.match(html, opened) if opened >= 0 else None
        if match is None or match.end() != mark + len(_UNIT_MARK):
            position = mark + len(_UNIT_MARK)  # not a unit's mark (text, another attribute)
            continue
        end = _element_end(html, opened, match.group(1))
        found.append((match.group(2), opened, end))
        position = end
    return found


@dataclass
class Screen:
    """One seat's (or the public's) whole live area, and its units."""

    html: str
    version: int
    status: str
    skeleton: bytes
    units: dict[str, str] = field(default_factory=dict)
    # The units holding a line list (``data-items``): only they can be sent a
    # line at a time, so only they are compared line by line.
    lists: frozenset[str] = frozenset()

    @classmethod
    def of(cls, html: str, *, version: int, status: str) -> Screen:
        # The templates are squeezed when loaded (config/template_loaders.py).
        units: dict[str, str] = {}
        pieces: list[str] = []
        position = 0
        for key, start, end in _units(html):
            units[key] = html[start:end]
            pieces.append(html[position:start])
            pieces.append(f"\x00{key}\x00")
            position = end
        pieces.append(html[position:])
        # #table-main's own tag carries the version: the state unit says it too.
        skeleton = _MAIN_TAG.sub("<main>", "".join(pieces))
        digest = hashlib.blake2b(skeleton.encode(), digest_size=16).digest()
        lists = frozenset(key for key, unit in units.items() if " data-items" in unit)
        return cls(
            html=html, version=version, status=status, skeleton=digest, units=units, lists=lists
        )

    def update(self, shown: Shown) -> str:
        """What a socket showing ``shown`` must receive to show this screen
        (``shown`` is brought up to date). Empty when nothing changed."""
        if shown.skeleton != self.skeleton:
            shown.skeleton, shown.units = self.skeleton, dict(self.units)
            return self.html
        parts = []
        for key, unit in self.units.items():
            old = shown.units.get(key)
            if old != unit:
                lines = _list_update(old, unit) if old is not None and key in self.lists else None
                if lines is not None:
                    parts.append(lines)
                    continue
                tag = unit[: unit.index(">")]
                parts.append(unit if "hx-swap-oob" in tag else unit.replace(" data-unit", " data-unit" + _OOB, 1))
        shown.units = dict(self.units)
        return "".join(parts)


# A list whose lines a socket may be sent one by one: ``<ol id="…" data-items``
# inside a unit, each of its children ``<li data-line="…"`` (any tag; the name
# first, as a unit's id) with nothing between them. A line is named by ``data-line``, not ``id``:
# htmx gives a swapped element with a known id its old classes until it settles,
# which would replay a line's "new" animation for a blink.
_ITEMS = re.compile(r'<([a-z][a-z0-9]*) id="([^"]+)" data-items\b[^>]*>')
_ITEM = re.compile(r'<([a-z][a-z0-9]*) data-line="([a-z][a-z0-9-]*)"')


@dataclass(frozen=True)
class _Lines:
    shell: str  # the unit with the list emptied
    tag: str
    list_id: str
    items: tuple[tuple[str, str], ...]  # (name, html), in order


@lru_cache(maxsize=4096)
def _lines_of(unit: str) -> _Lines | None:
    """The unit's line list, or None when it has none (or one we cannot cut)."""
    opened = _ITEMS.search(unit)
    if opened is None:
        return None
    tag, list_id = opened.group(1), opened.group(2)
    end = _element_end(unit, opened.start(), tag)
    inner_end = end - len(f"</{tag}>")
    items: list[tuple[str, str]] = []
    position = opened.end()
    while position < inner_end and not unit[position:inner_end].isspace():
        item = _ITEM.match(unit, position)
        if item is None:
            return None  # text between lines, or a line without a name
        item_end = _element_end(unit, position, item.group(1))
        items.append((item.group(2), unit[position:item_end]))
        position = item_end
    shell = unit[: opened.end()] + unit[position:]
    return _Lines(shell=shell, tag=tag, list_id=list_id, items=tuple(items))


def _list_update(old: str, new: str) -> str | None:
    """The few swaps that turn the unit ``old`` into ``new`` when only its line
    list changed the usual way: new lines on top, others dropped (the oldest,
    the separator that marks the newest), a line redrawn. A log of eight lines
    then costs a move one or two lines, not eight. None: send the whole unit."""
    before, after = _lines_of(old), _lines_of(new)
    if before is None or after is None or before.shell != after.shell:
        return None
    shown = dict(before.items)
    added = 0
    while added < len(after.items) and after.items[added][0] not in shown:
        added += 1
    kept = after.items[added:]
    staying = {name for name, _html in kept}
    if [name for name, _html in kept] != [name for name, _html in before.items if name in staying]:
        return None  # a line moved, or came in below others
    parts = []
    if added:
        lines = "".join(html for _name, html in after.items[:added])
        parts.append(f'<{after.tag} hx-swap-oob="afterbegin:#{after.list_id}">{lines}</{after.tag}>')
    for name, html in kept:
        if shown[name] != html:
            opening = html[: html.index(">")]
            swap = f' hx-swap-oob="outerHTML:[data-line={name}]"'
            parts.append(opening + swap + html[len(opening) :])
    for name, _html in before.items:
        if name not in staying:
            parts.append(f'<li hx-swap-oob="delete:[data-line={name}]"></li>')
    message = "".join(parts)
    return message if len(message) < len(new) else None


_TOP = re.compile(r"\s*<([a-z][a-z0-9]*)\b([^>]*)>")
_ID = re.compile(r'\bid="([^"]+)"')
_SWAP = re.compile(r'\s*\bhx-swap-oob="([^"]*)"')
_LINE_TARGET = re.compile(r"\[data-line=([a-z][a-z0-9-]*)\]")


def _find(screen: str, target: str) -> tuple[int, int] | None:
    """Where the element ``#id`` or ``[data-line=name]`` is in ``screen``."""
    line = _LINE_TARGET.fullmatch(target)
    attribute = f'data-line="{line.group(1)}"' if line else f'id="{target.removeprefix("#")}"'
    match = re.search(rf"<([a-z][a-z0-9]*) {re.escape(attribute)}", screen)
    if match is None:
        return None
    return match.start(), _element_end(screen, match.start(), match.group(1))


def apply_update(screen: str, message: str) -> str:
    """What htmx does with a message on a page showing ``screen``: a whole live
    area replaces it; an update's elements are swapped in by id (a unit) or by
    ``data-line`` (a line), put on top of a list (``afterbegin:#list``) or
    removed (``delete:…``). For tests and the load test, which read screens the
    way a tablet shows them."""
    if 'id="table-main"' in message or not screen:
        return message
    position = 0
    while (top := _TOP.match(message, position)) is not None:
        start = top.start(1) - 1
        end = _element_end(message, start, top.group(1))
        element = message[start:end]
        position = end
        swap = _SWAP.search(top.group(2))
        how, _colon, where = (swap.group(1) if swap else "true").partition(":")
        if how == "afterbegin":
            found = _find(screen, where)
            if found is not None:
                opened = screen.index(">", found[0]) + 1
                inner = element[element.index(">") + 1 : -len(f"</{top.group(1)}>")]
                screen = screen[:opened] + inner + screen[opened:]
            continue
        if not where:
            named = _ID.search(top.group(2))
            where = f"#{named.group(1)}" if named else ""
        found = _find(screen, where) if where else None
        if found is None:
            continue
        # What htmx swaps in has lost its hx-swap-oob (units keep theirs when
        # whole, as the template drew them; only "true" was ever stripped).
        replacement = ""
        if how != "delete":
            replacement = element.replace(_OOB, "", 1) if how == "true" else _SWAP.sub("", element, 1)
        screen = screen[: found[0]] + replacement + screen[found[1] :]
    return screen


@dataclass
class Shown:
    """What one socket's screen shows now (the units last sent to it)."""

    skeleton: bytes = b""
    units: dict[str, str] = field(default_factory=dict)
