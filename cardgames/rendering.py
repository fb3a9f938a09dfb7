"""Draw a table for one seat (or for the public), from the database.

Every live message is built here: a consumer reloads the table and renders
*its own* seat's view (``engine.view(state, seat)`` plus that seat's
``history`` tail). No payload shared between seats ever carries a secret.

A rendered view is a :class:`Screen`: the whole live area (sent on connect and
on resync) cut into *units*, the elements marked ``id="…" data-unit`` in the
templates (a player's line, the board, the hand, the log…). After a move a
socket is sent only the units that differ from what it shows (``Screen.update``),
each as an htmx out-of-band swap, so a move costs each tablet a few KB
instead of the whole page; anything outside the units that changed (the
skeleton) sends the whole area again, so a game without units still works.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgames import engines, ui
from cardgames.models import GameState, Seat, SeatConnection, Table

LOG_TAIL = 8

# Move nonces (a form's "this tap" token, refused if seen twice) drawn from a
# pool filled 256 at a time: one system call per 256 renders instead of one per
# render (under load each one handed the GIL away; the profile showed 13%).
_NONCES: list[str] = []


def _nonce() -> str:
    try:
        return _NONCES.pop()
    except IndexError:
        pool = secrets.token_hex(8 * 256)
        _NONCES.extend(pool[i : i + 16] for i in range(16, len(pool), 16))
        return pool[:16]


@dataclass
class Snapshot:
    """One consistent read of a table: row, seats, state and its engine."""

    table: Table
    seats: list[Seat]
    version: int
    engine: Any
    state: Any | None

    @property
    def seat_names(self) -> list[str]:
        return [shown_name(seat) for seat in self.seats]


def snapshot(table_id: int) -> Snapshot | None:
    """One read of a table: three plain queries (no model ordering to compile:
    this runs once per change per worker, and the ORM's query building was half
    its cost). Each seat gets ``connections``, its sockets alive now."""
    game_state = (
        GameState.objects.select_related("table").filter(table_id=table_id).order_by()[:1]
    )
    found = list(game_state)
    if found:
        table = found[0].table
    else:
        tables = list(Table.objects.filter(pk=table_id).order_by()[:1])
        if not tables:
            return None
        table = tables[0]
    seats = sorted(Seat.objects.filter(table_id=table_id).order_by(), key=lambda s: s.index)
    alive = Counter(
        SeatConnection.objects.filter(
            seat__table_id=table_id, expires_at__gt=timezone.now()
        ).values_list("seat_id", flat=True)
    )
    for seat in seats:
        seat.connections = alive[seat.pk]  # type: ignore[attr-defined]
    engine = engines.get(table.game)
    state = engine.from_json(found[0].state) if found else None
    return Snapshot(
        table=table,
        seats=seats,
        version=found[0].version if found else 0,
        engine=engine,
        state=state,
    )


def snapshot_of(after: Any) -> Snapshot:
    """The snapshot of a table as a move just committed it (``services.TableAfter``):
    what ``snapshot`` would read right after that commit, without the read. Its
    seats carry no ``connections`` (screens do not show presence; the monitor
    reads its own)."""
    return Snapshot(
        table=after.table,
        seats=sorted(after.seats, key=lambda s: s.index),
        version=after.version,
        engine=after.engine,
        state=after.state,
    )


def shown_name(seat: Seat) -> str:
    """A seat's name in the reader's language (robots are renamed when shown)."""
    return ui.seat_name(
        display_name=seat.display_name, is_bot=seat.is_bot, bot_level=seat.bot_level or ""
    )


@cache
def _avatar_files() -> frozenset[str]:
    """The avatar pictures that exist, so an unknown avatar falls back to a letter
    rather than a broken image."""
    folder = Path(settings.BASE_DIR) / "static" / "img" / "avatars"
    return frozenset(path.stem for path in folder.glob("*.svg"))


def avatar_url(avatar: str) -> str:
    return static(f"img/avatars/{avatar}.svg") if avatar in _avatar_files() else ""


def rematch_url(table: Table) -> str:
    """Where a steering viewer (the teacher) posts "Rejouer": named by the
    ``CARDGAMES_REMATCH_URL_NAME`` setting, since starting a new game at the same
    seats belongs to whoever owns the tables (cardgames knows no classes)."""
    name = getattr(settings, "CARDGAMES_REMATCH_URL_NAME", "")
    if not name:
        return ""
    try:
        return reverse(name, args=[table.pk])
    except NoReverseMatch:
        return ""


def status_message(table: Table, over: bool) -> str:
    if table.status == Table.Status.PAUSED:
        return _("⏸ La partie est en pause. Attends le signal de ton enseignant.")
    if table.status == Table.Status.WAITING:
        return _("⏳ La partie va bientôt commencer.")
    if table.status == Table.Status.FINISHED and not over:
        return _("🏁 Ton enseignant a terminé cette partie.")
    return ""


def seat_context(snap: Snapshot, seat: int | None, *, steer: bool = False) -> dict[str, Any]:
    """Everything the templates need for ``seat`` (``None``: public). ``steer``:
    the viewer runs the table (the teacher), so the end screen offers "Rejouer"."""
    adapter = ui.get(snap.table.game)
    names = snap.seat_names
    context: dict[str, Any] = {
        "table": snap.table,
        "seat": seat,
        "seats": snap.seats,
        "version": snap.version,
        "started": snap.state is not None,
        "game_template": adapter.seat_template if seat is not None else adapter.public_template,
        "game_script": adapter.script,
        "nonce": _nonce(),
        "log": [],
        "view": {},
        "steer": steer,
        "rematch_url": rematch_url(snap.table) if steer else "",
    }
    if snap.state is None:
        context["status_message"] = status_message(snap.table, False)
        return context
    engine = snap.engine
    view = engine.view(snap.state, seat)
    over = bool(view.get("over"))
    playing = snap.table.status == Table.Status.PLAYING
    legal = engine.legal_actions(snap.state, seat) if seat is not None and playing else []
    choice = None
    if seat is not None and 0 <= seat < len(snap.seats):
        pending = snap.seats[seat].pending_choice
        if isinstance(pending, dict) and pending.get("version") == snap.version:
            choice = pending
    history = engine.history(snap.state, seat)
    context.update(
        view=view,
        legal=legal,
        my_turn=bool(legal),
        over=over,
        playing=playing,
        status_message=status_message(snap.table, over),
        log=[
            adapter.describe_event(event, names, snap.table.options)
            for event in reversed(history[-LOG_TAIL:])
        ],
        current_name=(
            names[view["current_seat"]]
            if isinstance(view.get("current_seat"), int) and 0 <= view["current_seat"] < len(names)
            else ""
        ),
        winners=[names[s] for s in view.get("winners") or [] if 0 <= s < len(names)],
        players=[
            {
                "index": s.index,
                "name": shown_name(s),
                "avatar": s.avatar,
                "avatar_url": "" if s.is_bot else avatar_url(s.avatar),
                "is_bot": s.is_bot,
                "is_me": s.index == seat,
                "is_current": s.index == view.get("current_seat"),
            }
            for s in snap.seats
        ],
    )
    game_context = adapter.seat_context(
        view=view, legal=legal, choice=choice, seed=snap.table.seed, version=snap.version
    )
    # What the game adds to each player (its scores, cards in hand...), by seat.
    extras = game_context.pop("player_extras", None) or []
    for player in context["players"]:
        if player["index"] < len(extras):
            player.update(extras[player["index"]])
    context.update(game_context)
    context.update(adapter.events_context(history=history, view=view, seat=seat, seat_names=names))
    context["how_to_play"] = how_to_play(snap.table.game)
    # Open by itself until the seat's first move, unless the game says otherwise.
    context.setdefault(
        "how_to_play_open",
        seat is not None and not over and not any(e.get("seat") == seat for e in history),
    )
    return context


def how_to_play(game: str) -> list[dict[str, str]]:
    """The game's "how to play" steps, each with a picture (a static file's URL,
    or an emoji drawn as text) and its sentence, translated now."""
    steps = []
    for picture, text in ui.get(game).how_to_play:
        is_file = "/" in picture
        steps.append(
            {"src": static(picture) if is_file else "", "emoji": "" if is_file else picture, "text": str(text)}
        )
    return steps


def refusal_text(snap: Snapshot | None, seat: int | None, code: str, action: Any) -> str:
    """The sentence for a refused move, in the table's game's words; some say
    more from what this seat may know (who was faster, which meow to read)."""
    if snap is None:
        return ui.generic.refusal_message(code)
    adapter = ui.get(snap.table.game)
    if snap.state is not None and seat is not None and isinstance(action, dict):
        text = adapter.explain_refusal(
            code,
            action=action,
            view=snap.engine.view(snap.state, seat),
            history=snap.engine.history(snap.state, seat),
            seat_names=snap.seat_names,
        )
        if text:
            return text
    return adapter.refusal_message(code)


def render_fragments(
    snap: Snapshot,
    seat: int | None,
    *,
    notice: str = "",
    oob: bool = True,
    steer: bool = False,
    announce: bool = False,
    shared_parts: dict[tuple[Any, ...], str] | None = None,
) -> str:
    """The seat's whole live area as out-of-band fragments (main, log, notice).
    ``announce``: the table changed since this screen's last render, so the
    notice area (the only live region) says the change once, for screen readers.
    ``shared_parts``: the parts every screen of this snapshot has in common,
    drawn by the first render that needs them (``templatetags/shared.py``)."""
    context = seat_context(snap, seat, steer=steer)
    context.update(notice=notice, oob=oob, announce=announce, shared_parts=shared_parts)
    return render_to_string("cardgames/_fragments.html", context)


# The units of a rendered view: ``<tag id="…" data-unit`` (id first, always).
_UNIT = re.compile(r'<([a-z][a-z0-9]*) id="([^"]+)" data-unit\b')
_MAIN_TAG = re.compile(r'<section id="table-main"[^>]*>')
_OOB = ' hx-swap-oob="true"'
_TAG_PATTERNS: dict[str, re.Pattern[str]] = {}


def _element_end(html: str, start: int, tag: str) -> int:
    """Where the element opened at ``start`` closes (same-name nesting counted)."""
    pattern = _TAG_PATTERNS.get(tag)
    if pattern is None:
        pattern = _TAG_PATTERNS[tag] = re.compile(rf"<(/?){tag}\b[^>]*>")
    depth = 0
    for match in pattern.finditer(html, start):
        if match.group(1):
            depth -= 1
            if depth == 0:
                return match.end()
        elif not match.group(0).endswith("/>"):
            depth += 1
    return len(html)


@dataclass
class Screen:
    """One seat's (or the public's) whole live area, and its units."""

    html: str
    version: int
    status: str
    skeleton: bytes
    units: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, html: str, *, version: int, status: str) -> Screen:
        # The templates are squeezed when loaded (config/template_loaders.py).
        units: dict[str, str] = {}
        pieces: list[str] = []
        position = 0
        for match in _UNIT.finditer(html):
            if match.start() < position:
                continue  # inside the previous unit
            end = _element_end(html, match.start(), match.group(1))
            units[match.group(2)] = html[match.start() : end]
            pieces.append(html[position : match.start()])
            pieces.append(f"\x00{match.group(2)}\x00")
            position = end
        pieces.append(html[position:])
        # #table-main's own tag carries the version: the state unit says it too.
        skeleton = _MAIN_TAG.sub("<main>", "".join(pieces))
        digest = hashlib.blake2b(skeleton.encode(), digest_size=16).digest()
        return cls(html=html, version=version, status=status, skeleton=digest, units=units)

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
                lines = _list_update(old, unit) if old is not None else None
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


def units_of(html: str) -> dict[str, str]:
    """The units in ``html`` by id (a whole screen or an update)."""
    units: dict[str, str] = {}
    position = 0
    for match in _UNIT.finditer(html):
        if match.start() < position:
            continue
        position = _element_end(html, match.start(), match.group(1))
        units[match.group(2)] = html[match.start() : position]
    return units


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


def render_screen(
    snap: Snapshot,
    seat: int | None,
    *,
    notice: str = "",
    steer: bool = False,
    announce: bool = False,
    shared_parts: dict[tuple[Any, ...], str] | None = None,
) -> Screen:
    return Screen.of(
        render_fragments(
            snap, seat, notice=notice, steer=steer, announce=announce, shared_parts=shared_parts
        ),
        version=snap.version,
        status=str(snap.table.status),
    )


def render_notice(message: str) -> str:
    """Only the notice line: a refusal changes nothing else on the page."""
    return render_to_string("cardgames/_notice.html", {"notice": message, "oob": True})


def render_closed(message: str) -> str:
    return render_to_string("cardgames/_closed.html", {"message": message})


def render_moved(table_id: int) -> str:
    """The game goes on at a new table (someone pressed "Rejouer"): every screen
    of the old one goes there by itself, with a big button should a script fail."""
    return render_to_string(
        "cardgames/_moved.html", {"url": reverse("cardgames:table", args=[table_id])}
    )
