"""The statements of a move, written once per database instead of built by the
ORM on every move.

A move is five statements (``services.moves``) and its screens' read is two
(``cardgames.snapshot``); they are the same statements every time, only their
values change. Built by the ORM they cost more to build than to run (the
figures: ``docs/performance.md``). Here
each statement's SQL is written once per database connection vendor, from the
models' own metadata (tables, columns, ``FOR UPDATE`` where the database has it),
and each value goes through the field's own conversions both ways
(``get_db_prep_save`` in, the backend's and the field's converters out, as the
ORM does), so a row read here is the very model instance the ORM would build.
``tests/cardgames/test_statements.py`` compares them on every field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from cardgames.models import GameEvent, GameState, Move, Seat, Table

M = TypeVar("M", bound=models.Model)
_Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


class _Reader:
    """A model's columns, in ``concrete_fields`` order, and how to turn a row's
    values into an instance (``Model.from_db``, as the ORM does)."""

    def __init__(self, model: type[models.Model], db: BaseDatabaseWrapper) -> None:
        quote = db.ops.quote_name
        self.model = model
        table = model._meta.db_table
        fields = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in fields]
        self.columns = ", ".join(f"{quote(table)}.{quote(field.column)}" for field in fields)
        self.converters: list[tuple[list[_Converter], Any]] = []
        for field in fields:
            column = field.get_col(table)
            found = db.ops.get_db_converters(column) + column.get_db_converters(db)
            self.converters.append((found, column))
        self.width = len(fields)

    def build(self, row: Sequence[Any], start: int, db: BaseDatabaseWrapper) -> models.Model:
        values = []
        for value, (converters, column) in zip(row[start : start + self.width], self.converters, strict=True):
            for convert in converters:
                value = convert(value, column, db)
            values.append(value)
        return self.model.from_db(db.alias, self.attnames, values)


@cache
def _reader(model: type[models.Model], vendor: str) -> _Reader:
    return _Reader(model, connection)


def _lock_clause(db: BaseDatabaseWrapper, *tables: str) -> str:
    """``FOR UPDATE`` (of these tables) where the database has row locks;
    SQLite's writers already take turns (IMMEDIATE transactions)."""
    if not db.features.has_select_for_update:
        return ""
    if tables and db.features.has_select_for_update_of:
        return " FOR UPDATE OF " + ", ".join(db.ops.quote_name(table) for table in tables)
    return " FOR UPDATE"


@cache
def _state_select_sql(vendor: str, lock: bool) -> str:
    db = connection
    quote = db.ops.quote_name
    states, tables = GameState._meta.db_table, Table._meta.db_table
    state_reader, table_reader = _reader(GameState, vendor), _reader(Table, vendor)
    sql = (
        f"SELECT {state_reader.columns}, {table_reader.columns} FROM {quote(states)}"
        f" INNER JOIN {quote(tables)} ON {quote(tables)}.{quote(Table._meta.pk.column)}"
        f" = {quote(states)}.{quote(GameState._meta.pk.column)}"
        f" WHERE {quote(states)}.{quote(GameState._meta.pk.column)} = %s"
    )
    return sql + (_lock_clause(db, states, tables) if lock else "")


def game_state_read(table_id: int, *, lock: bool = False) -> GameState | None:
    """The table's game state with its table (``state.table``), or ``None``
    when it has none. ``lock``: the move's lock on both rows (the caller is in
    the move's transaction)."""
    vendor = connection.vendor
    with connection.cursor() as cursor:
        cursor.execute(_state_select_sql(vendor, lock), [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    state_reader = _reader(GameState, vendor)
    game_state = state_reader.build(row, 0, connection)
    table = _reader(Table, vendor).build(row, state_reader.width, connection)
    game_state.table = table  # type: ignore[attr-defined]
    assert isinstance(game_state, GameState)
    return game_state


@cache
def _seats_select_sql(vendor: str, lock: bool) -> str:
    db = connection
    quote = db.ops.quote_name
    seats = Seat._meta.db_table
    sql = (
        f"SELECT {_reader(Seat, vendor).columns} FROM {quote(seats)}"
        f" WHERE {quote(seats)}.{quote(Seat._meta.get_field('table').column)} = %s"
        f" ORDER BY {quote(seats)}.{quote(Seat._meta.get_field('index').column)}"
    )
    return sql + (_lock_clause(db) if lock else "")


def seats_read(table_id: int, *, lock: bool = False) -> list[Seat]:
    """The table's seats in seat order (``lock``: locked for the move)."""
    vendor = connection.vendor
    reader = _reader(Seat, vendor)
    with connection.cursor() as cursor:
        cursor.execute(_seats_select_sql(vendor, lock), [table_id])
        rows = cursor.fetchall()
    return [reader.build(row, 0, connection) for row in rows]  # type: ignore[misc]


def _prepared(model: type[models.Model], name: str, value: Any) -> Any:
    return model._meta.get_field(name).get_db_prep_save(value, connection)


@cache
def _state_update_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    names = ("state", "version", "next_seq", "turn_started_at", "updated_at")
    sets = ", ".join(f"{quote(GameState._meta.get_field(name).column)} = %s" for name in names)
    return (
        f"UPDATE {quote(GameState._meta.db_table)} SET {sets}"
        f" WHERE {quote(GameState._meta.pk.column)} = %s"
        f" AND {quote(GameState._meta.get_field('version').column)} = %s"
    )


def game_state_save(*, table_id: int, version: int, state: Any, next_seq: int, now: Any) -> bool:
    """The compare-and-set: turn ``version`` into ``version + 1`` with this
    state (its turn started ``now``). False when another writer got there
    first: nothing was written."""
    values = [
        _prepared(GameState, "state", state),
        _prepared(GameState, "version", version + 1),
        _prepared(GameState, "next_seq", next_seq),
        _prepared(GameState, "turn_started_at", now),
        _prepared(GameState, "updated_at", now),
        table_id,
        version,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_state_update_sql(connection.vendor), values)
        return bool(cursor.rowcount == 1)


@cache
def _insert_sql(model: type[models.Model], names: tuple[str, ...], vendor: str, rows: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in names)
    row = "(" + ", ".join(["%s"] * len(names)) + ")"
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES " + ", ".join([row] * rows)


def _insert(model: type[models.Model], rows: Sequence[dict[str, Any]]) -> None:
    """Rows of ``model`` (every row with the same fields), each value prepared
    by its field; ``created_at`` is now, as ``auto_now_add`` would set it."""
    if not rows:
        return
    now = timezone.now()
    names = (*rows[0], "created_at")
    values: list[Any] = []
    for row in rows:
        values.extend(_prepared(model, name, row[name]) for name in names[:-1])
        values.append(_prepared(model, "created_at", now))
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, names, connection.vendor, len(rows)), values)


def move_insert(
    *,
    table_id: int,
    seat: int,
    version: int,
    nonce: str,
    action: Any,
    by_bot: bool,
    timed_out: bool,
    think_ms: int | None,
    compute_ms: int | None,
) -> None:
    """The applied move's row (a second one with this nonce raises
    ``IntegrityError``: the unique constraint stops a replay)."""
    _insert(
        Move,
        [
            {
                "table": table_id,
                "seat": seat,
                "version": version,
                "nonce": nonce,
                "action": action,
                "by_bot": by_bot,
                "timed_out": timed_out,
                "think_ms": think_ms,
                "compute_ms": compute_ms,
            }
        ],
    )


def events_insert(*, table_id: int, version: int, first_seq: int, events: Iterable[dict[str, Any]]) -> None:
    """A change's events, numbered from ``first_seq``; each private event
    keeps who may see it (``visible_to``)."""
    _insert(
        GameEvent,
        [
            {
                "table": table_id,
                "seq": first_seq + offset,
                "version": version,
                "seat": event.get("seat") if isinstance(event.get("seat"), int) else None,
                "kind": str(event.get("type", ""))[:32],
                "payload": event,
                "visible_to": event.get("to"),
            }
            for offset, event in enumerate(events)
        ],
    )
