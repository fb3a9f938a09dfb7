"""`make faults`: a school playing while Redis and PostgreSQL restart (issue 49).

On a PostgreSQL and a Redis of the run's own (``benchmarks/common.py``; the
machine's shared ones are never touched), ``manage.py serve --workers 2`` and
the load test's tablets (``--tables`` tables of 3 pupils, a robot and a
projector: 4 sockets each) playing at a child's pace, three faults in turn:

1. **Redis** is killed, stays away ``--outage`` seconds and comes back empty.
   During the outage a few tablets connect (a handshake must be answered, not
   a 500) and ``/healthz`` is asked. Recovery: the time from Redis being back
   until each screen shows its table's version (as stored when Redis came
   back) without the outage line, with no reload.
2. **PostgreSQL** is stopped (fast shutdown: sessions ended), stays away
   ``--outage`` seconds, starts again. Taps made meanwhile get "un instant" or
   wait and are applied once it is back. Same recovery figure, plus when the
   taps of the outage were applied and when moves flowed again.
3. **Cuts**: ``--cuts`` tablets close their connection right after sending a
   move (before any reply), reconnect, and resend the same move (a tablet that
   never saw its answer): each move must be applied once, and shown.

Afterwards the database is checked (``tablets.check_database``): no gap and no
duplicate in any event log or move list, applied pupil moves = acknowledged
moves + the cut ones that applied, every socket's screen = the engine's view.
The server log is read during the run: every traceback or error line is listed
with the phase it came in; connection errors during an outage or its recovery
are expected, anything else fails the run.

Exit status 1 on a lost or duplicated move, a wrong screen, an unexpected
traceback or an HTTP 500; also on a refused or dropped socket unless ``--ci``.
Never on latency.

    .venv/bin/python benchmarks/faults.py --tables 75            # make faults
    .venv/bin/python benchmarks/faults.py --tables 10 --outage 2 --ci   # CI
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import common, tablets  # noqa: E402
from benchmarks.tablets import DISCARD, LEGAL, Tablet, wait_any  # noqa: E402

OUTAGE_TEXT = "Connexion au serveur perdue"
BUSY_TEXT = "le serveur se reconnecte"
DUPLICATE_TEXT = "déjà été envoyé"
FAILED_TEXT = "Oups, quelque chose n"  # the consumer's answer to an unexpected error


# =========================================================================== tablets
@dataclass
class FaultTablet(Tablet):
    """A load-test tablet that also notes the outage line, "un instant" and
    "oups", and can lose its connection at will."""

    outage_shown: bool = False
    outage_seen: int = 0
    busy_at: float = 0.0
    refusal_at: float = 0.0
    failed_at: float = 0.0
    cuts: list[float] = field(default_factory=list)

    def _received(self, message: str | bytes) -> None:
        super()._received(message)
        text = message if isinstance(message, str) else message.decode()
        if OUTAGE_TEXT in text:
            if not self.outage_shown:
                self.outage_seen += 1
            self.outage_shown = True
        elif self.outage_shown:
            self.outage_shown = OUTAGE_TEXT in self.last_main
        if BUSY_TEXT in text:
            self.busy_at = time.perf_counter()
        if DUPLICATE_TEXT in text:
            self.refusal_at = time.perf_counter()
        if FAILED_TEXT in text:
            self.failed_at = time.perf_counter()

    async def cut(self) -> None:
        """Wi-Fi gone: the connection closes under the tablet, no closing
        handshake (what was sent is flushed first, as a TCP FIN does)."""
        self.cuts.append(time.perf_counter())
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.close()


async def handshake_status(url: str, cookie: str) -> tuple[int, FaultTablet]:
    """Open one more socket (a projector) now: 101 when let in, else the HTTP
    status of the refusal (0: no answer within 15 s)."""
    import websockets
    from websockets.exceptions import InvalidStatus

    tablet = FaultTablet(url, cookie, None)
    headers = {"Origin": tablets.page_origin(url), "Cookie": f"sessionid={cookie}"}
    try:
        tablet.ws = await websockets.connect(url, additional_headers=headers, max_size=2**22, open_timeout=15)
    except InvalidStatus as refused:
        return refused.response.status_code, tablet
    except Exception:
        return 0, tablet
    return 101, tablet


async def http_status(url: str) -> int:
    def get() -> int:
        try:
            with urllib.request.urlopen(url, timeout=15) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)
        except Exception:
            return 0

    return await asyncio.to_thread(get)


# =========================================================================== play
@dataclass
class Attempt:
    table: int
    seat: int
    version: int
    nonce: str
    sent: float
    phase: str
    cut: bool = False
    outcome: str = "none"  # acked, busy ("un instant"), failed ("oups"), none
    acked_at: float = 0.0
    shown_after_cut: float = -1.0  # seconds from the cut until the tablet showed the move
    resend_refused: bool = False


@dataclass
class Run:
    tables: list[dict[str, Any]]
    groups: dict[int, list[FaultTablet]]
    watch: common.LogWatch
    pace: tuple[float, float]
    choose: bool
    attempts: list[Attempt] = field(default_factory=list)
    samples: list[tuple[float, float, str]] = field(default_factory=list)
    cut_quota: dict[int, int] = field(default_factory=dict)
    stopping: bool = False

    @property
    def phase(self) -> str:
        return self.watch.phase


async def drive_table(run: Run, table: dict[str, Any], seed: int) -> None:
    """The load test's pupils (``tablets.drive_table``), who also notice "un
    instant" (and tap again a moment later) and can lose their connection
    right after a move. One pupil's loop: long, but read as what a child does."""
    rng = random.Random(seed)
    group = run.groups[table["id"]]
    pupils = group[:3]
    while not run.stopping:
        if any(t.over for t in group):
            return
        pupil = next(
            (t for t in pupils if t.current == t.seat and t.version >= 0 and t.connected.is_set()),
            None,
        )
        if pupil is None:
            await wait_any(group, 1)  # type: ignore[arg-type]
            continue
        version = pupil.version
        cards = LEGAL.findall(pupil.last_main)
        if not cards:
            await wait_any(group, 0.2)  # type: ignore[arg-type]
            continue
        await asyncio.sleep(rng.uniform(*run.pace))
        if run.stopping or pupil.version != version or not pupil.connected.is_set():
            continue
        card = rng.choice(cards)
        if run.choose:
            pupil.changed.clear()
            with contextlib.suppress(Exception):
                await pupil.ws.send(json.dumps({"kind": "choose", "card": card, "version": str(version)}))
                await asyncio.wait_for(pupil.changed.wait(), 5)
            await asyncio.sleep(rng.uniform(0.3, 1.0))
            if pupil.version != version or not pupil.connected.is_set():
                continue
        assert pupil.seat is not None
        nonce = f"ft-{table['id']}-{pupil.seat}-{version}-{rng.randrange(10**9)}"
        payload = json.dumps({
            "kind": "act",
            "move": "discard" if DISCARD.search(pupil.last_main) else "play",
            "card": card,
            "version": str(version),
            "nonce": nonce,
        })
        cut = run.cut_quota.get(table["id"], 0) > 0
        reconnects_before = sum(t.reconnects for t in group)
        attempt = Attempt(table["id"], pupil.seat, version, nonce, time.perf_counter(), run.phase, cut)
        try:
            await pupil.ws.send(payload)
        except Exception:
            continue  # never left: the connection had just gone
        run.attempts.append(attempt)
        if cut:
            run.cut_quota[table["id"]] -= 1
            await pupil.cut()
            await asyncio.sleep(0.05)
            give_up = time.perf_counter() + 30
            while time.perf_counter() < give_up and not (pupil.connected.is_set() and pupil.version > version):
                await wait_any([pupil], 0.5)  # type: ignore[list-item]
            if pupil.version > version:
                attempt.outcome = "acked"
                attempt.shown_after_cut = time.perf_counter() - pupil.cuts[-1]
                # The tablet never saw its answer: it sends the move again.
                pupil.refusal_at = 0.0
                with contextlib.suppress(Exception):
                    await pupil.ws.send(payload)
                    await asyncio.sleep(1.0)
                attempt.resend_refused = pupil.version > version
            continue
        give_up = time.perf_counter() + 30
        while not all(t.version > version for t in group) and time.perf_counter() < give_up:
            await wait_any(group, 1)  # type: ignore[arg-type]
            if pupil.version > version:
                continue
            if pupil.busy_at > attempt.sent or pupil.failed_at > attempt.sent:
                break  # "un instant" or "oups": the child taps again in a moment
            if pupil.closes and pupil.closes[-1] > attempt.sent:
                await pupil.connected.wait()
                await asyncio.sleep(0.5)
                if pupil.version == version:
                    break
        if pupil.version <= version and (pupil.busy_at > attempt.sent or pupil.failed_at > attempt.sent):
            attempt.outcome = "busy" if pupil.busy_at > attempt.sent else "failed"
            await asyncio.sleep(rng.uniform(1.0, 2.0))
        if pupil.version > version:
            # Turn-based Chasse: only this seat's move turns ``version`` into the next.
            attempt.outcome = "acked"
            attempt.acked_at = min(at for v, at in pupil.arrivals.items() if v > version)
        if not all(t.version > version for t in group):
            continue
        if sum(t.reconnects for t in group) != reconnects_before:
            continue
        run.samples.append((
            attempt.sent,
            max(min(at for v, at in t.arrivals.items() if v > version) for t in group) - attempt.sent,
            attempt.phase,
        ))


# =========================================================================== faults
def db_versions(database_url: str, table_ids: list[int]) -> dict[int, int]:
    import psycopg

    with psycopg.connect(database_url, connect_timeout=5) as conn:
        rows = conn.execute(
            "SELECT table_id, version FROM cardgames_gamestate WHERE table_id = ANY(%s)", [table_ids]
        ).fetchall()
    return {int(t): int(v) for t, v in rows}


async def db_versions_retry(database_url: str, table_ids: list[int]) -> dict[int, int]:
    for _ in range(100):
        try:
            return await asyncio.to_thread(db_versions, database_url, table_ids)
        except Exception:
            await asyncio.sleep(0.1)
    raise RuntimeError("the database did not answer within 10 s")


async def recovery(
    tablets: list[tuple[int, FaultTablet]], targets: dict[int, int], back: float, limit: float
) -> tuple[list[float], int, float]:
    """Seconds from ``back`` until each screen is current (its table's version
    as stored at ``back``, no outage line, connected); how many never were
    within ``limit``; when the last one was."""
    times: dict[int, float] = {}
    deadline = back + limit
    while True:
        now = time.perf_counter()
        for number, (table_id, tablet) in enumerate(tablets):
            if number in times:
                continue
            if tablet.version >= targets.get(table_id, 0) and not tablet.outage_shown and tablet.connected.is_set():
                times[number] = now - back
        if len(times) == len(tablets) or now > deadline:
            break
        await asyncio.sleep(0.02)
    return list(times.values()), len(tablets) - len(times), max(times.values(), default=0.0)


async def fault(
    run: Run, name: str, server: common.Server, database_url: str, outage: float,
    stop: Any, start: Any, probes: int,
) -> dict[str, Any]:
    """One outage: stop the service, probe the server meanwhile, start it,
    measure how long until every screen is current. Long on purpose: one
    outage's timeline, read in the order it happens."""
    everyone = [(tid, t) for tid, group in run.groups.items() for t in group]
    table_ids = list(run.groups)
    run.watch.phase = f"{name}-outage"
    down_at = time.perf_counter()
    await asyncio.to_thread(stop)
    stopped_in = time.perf_counter() - down_at
    await asyncio.sleep(min(1.0, outage / 3))  # the workers notice it
    started_probes = time.perf_counter()
    # A few tablets arriving now (projectors), and a monitor asking: in tasks
    # of their own, as a handshake may wait for the service to be back.
    tables = random.Random(name).sample(run.tables, min(probes, len(run.tables)))
    probe_tasks = [
        asyncio.create_task(_timed(handshake_status(f"{server.ws_base}/ws/table/{t['id']}/", t["projector"])))
        for t in tables
    ]
    health_task = asyncio.create_task(_timed(http_status(f"{server.http_base}/healthz")))
    home_task = asyncio.create_task(_timed(http_status(f"{server.http_base}/")))
    await asyncio.sleep(max(0.0, down_at + outage - time.perf_counter()))
    run.watch.phase = f"{name}-outage"
    start_at = time.perf_counter()
    await asyncio.to_thread(start)
    back = time.perf_counter()
    run.watch.phase = f"{name}-recovery"
    targets = await db_versions_retry(database_url, table_ids)
    # The probes answered by now (or at most 15 s after the service is back).
    handshakes = await asyncio.gather(*probe_tasks)
    health, health_in = await health_task
    home, home_in = await home_task
    late: list[tuple[int, FaultTablet]] = []
    late_runs = []
    for table, ((status, tablet), _took) in zip(tables, handshakes, strict=True):
        if status == 101:
            late.append((table["id"], tablet))
            late_runs.append(asyncio.create_task(_read(tablet)))
    # What was stored when the service came back; a socket that showed the
    # outage line must also have had it taken away.
    times, missing, last = await recovery(everyone + late, targets, back, 60)
    late_screens = sum(1 for _tid, t in late if t.version >= 0)
    for tablet, task in zip((t for _tid, t in late), late_runs, strict=True):
        with contextlib.suppress(Exception):
            await tablet.ws.close()
        task.cancel()
    await asyncio.sleep(max(0.0, back + 10 - time.perf_counter()))
    run.watch.phase = "play"
    # Taps of the outage, and the first moves after it.
    during = [a for a in run.attempts if down_at <= a.sent < back and not a.cut]
    after = [a for a in run.attempts if a.sent >= back and a.outcome == "acked" and not a.cut]
    acked_during = [a.acked_at - back for a in during if a.outcome == "acked" and a.acked_at >= back]
    first_after = min((a.acked_at - back for a in run.attempts if a.acked_at >= back), default=float("nan"))
    return {
        "name": name,
        "outage": back - down_at,
        "stopped_in": stopped_in,
        "started_in": back - start_at,
        "sockets": len(times) + missing,
        "recovery": common.percentiles_ms(times),
        "recovery_missing": missing,
        "recovery_last": last,
        "outage_line_shown": sum(1 for _tid, t in everyone if t.outage_seen),
        # HTTP status (101: let in; 0: no answer within 15 s) and seconds after the fault began.
        "handshakes": [(status, round(started_probes - down_at + took, 1)) for (status, _t), took in handshakes],
        "late_screens": late_screens,
        "healthz": (health, round(started_probes - down_at + health_in, 1)),
        "home": (home, round(started_probes - down_at + home_in, 1)),
        "taps_during": len(during),
        "taps_during_acked": sum(1 for a in during if a.outcome == "acked"),
        "taps_during_busy": sum(1 for a in during if a.outcome == "busy"),
        "taps_during_failed": sum(1 for a in during if a.outcome == "failed"),
        "taps_during_applied_after_back": common.percentiles_ms(acked_during),
        "first_ack_after_back": first_after,
        "moves_after": common.percentiles_ms(
            [s for start, s, _p in run.samples if back + 2 <= start < back + 20]
        ),
        "moves_after_n": len(after),
        "_window": (down_at, back),
    }


async def _timed(work: Any) -> tuple[Any, float]:
    """The result, and the seconds it took."""
    start = time.perf_counter()
    result = await work
    return result, time.perf_counter() - start


async def _read(tablet: FaultTablet) -> None:
    from websockets.exceptions import ConnectionClosed

    with contextlib.suppress(ConnectionClosed):
        tablet.connected.set()
        async for message in tablet.ws:
            tablet._received(message)
    tablet.connected.clear()


async def cuts(run: Run, count: int) -> dict[str, Any]:
    run.watch.phase = "cuts"
    ids = list(run.groups)
    random.Random(7).shuffle(ids)
    for number in range(count):  # spread over the tables, several each if need be
        tid = ids[number % len(ids)]
        run.cut_quota[tid] = run.cut_quota.get(tid, 0) + 1
    give_up = time.perf_counter() + 120
    while any(run.cut_quota.values()) and time.perf_counter() < give_up:
        await asyncio.sleep(0.5)
    # The last cut tablets reconnect and resend.
    await asyncio.sleep(5)
    run.watch.phase = "play"
    done = [a for a in run.attempts if a.cut]
    return {"asked": count, "made": len(done), "attempts": done}


# =========================================================================== the run
async def play(
    server: common.Server, pg: Any, redis: Any, database_url: str,
    tables: list[dict[str, Any]], args: argparse.Namespace,
) -> tuple[dict[str, Any], common.LogWatch]:
    """The whole fault run: the school plays while each outage comes and goes.
    Long on purpose: the run's phases read in the order they happen, each
    figure next to the phase it measures."""
    pace = tuple(float(x) for x in args.pace.split(","))
    groups: dict[int, list[FaultTablet]] = {}
    for table in tables:
        url = f"{server.ws_base}/ws/table/{table['id']}/"
        groups[table["id"]] = [FaultTablet(url, c, seat) for seat, c in enumerate(table["pupils"])] + [
            FaultTablet(url, table["projector"], None)
        ]
    everyone = [t for g in groups.values() for t in g]
    watch = common.LogWatch(server.log_path, phase="connect")
    run = Run(tables, groups, watch, pace, args.choose)  # type: ignore[arg-type]

    async def poll_log() -> None:
        while True:
            watch.poll()
            await asyncio.sleep(0.3)

    poller = asyncio.create_task(poll_log())
    runners = [asyncio.create_task(t.run()) for t in everyone]
    started = time.perf_counter()
    while time.perf_counter() < started + 120 and not all(t.version >= 0 or t.refused for t in everyone):
        await asyncio.sleep(0.05)
    connected_in = time.perf_counter() - started
    watch.phase = "play"
    cpu_start = server.cpu_seconds()
    play_start = time.perf_counter()
    drivers = [asyncio.create_task(drive_table(run, t, n)) for n, t in enumerate(tables)]
    faults: list[dict[str, Any]] = []
    cut_result: dict[str, Any] = {}
    try:
        await asyncio.sleep(args.warm)
        faults.append(await fault(run, "redis", server, database_url, args.outage, redis.stop, redis.start, args.probes))
        await asyncio.sleep(args.gap)
        faults.append(await fault(
            run, "postgres", server, database_url, args.outage, lambda: pg.stop("fast"), pg.start, args.probes
        ))
        await asyncio.sleep(args.gap)
        cut_result = await cuts(run, args.cuts)
        await asyncio.sleep(args.gap)
    finally:
        run.stopping = True
        watch.phase = "settle"
        await asyncio.gather(*drivers, return_exceptions=True)
    play_seconds = time.perf_counter() - play_start
    cpu_used = server.cpu_seconds() - cpu_start
    # Settle: robots finish their turn, every screen catches up.
    settle_until = time.perf_counter() + 30
    want = await db_versions_retry(database_url, list(groups))
    while time.perf_counter() < settle_until:
        await asyncio.sleep(1.0)
        want = await db_versions_retry(database_url, list(groups))
        if all(t.version == want[tid] and t.connected.is_set() for tid, g in groups.items() for t in g):
            await asyncio.sleep(1.0)
            if await db_versions_retry(database_url, list(groups)) == want:
                break
    # Applied = acknowledged + the cut ones that applied (read from the database).
    from asgiref.sync import sync_to_async

    @sync_to_async
    def applied_nonces() -> set[str]:
        from django.db import connections

        from cardgames.models import Move

        connections.close_all()  # opened before PostgreSQL restarted
        return set(Move.objects.filter(table_id__in=list(groups), by_bot=False).values_list("nonce", flat=True))

    applied = await applied_nonces()
    stats = tablets.Stats()
    for attempt in run.attempts:
        if attempt.outcome == "acked" or (attempt.cut and attempt.nonce in applied):
            stats.acked_nonces.add(attempt.nonce)
    problems: list[str] = await sync_to_async(tablets.check_database)(groups, stats)  # type: ignore[arg-type]
    cut_attempts = [a for a in run.attempts if a.cut]
    for a in cut_attempts:
        if a.nonce not in applied:
            problems.append(f"table {a.table} seat {a.seat}: the cut move of v{a.version} was never applied")
        elif a.shown_after_cut < 0:
            problems.append(f"table {a.table} seat {a.seat}: the cut move of v{a.version} applied, not shown")
    sent = {a.nonce for a in run.attempts}
    if applied - sent:
        problems.append(f"{len(applied - sent)} applied pupil moves were never sent")
    watch.phase = "end"
    for t in everyone:
        t.stopping = True
    for t in everyone:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(t.close(), 5)
    for r in runners:
        r.cancel()
    await asyncio.gather(*runners, return_exceptions=True)
    poller.cancel()
    # Closes: the cut ones are the test; any other is a dropped socket,
    # counted with the phase it happened in.
    windows = {f["name"]: f.pop("_window") for f in faults}
    drops: dict[str, int] = {}
    for t in everyone:
        for at in t.closes:
            if any(0 <= at - c <= 3 for c in t.cuts):
                continue
            where = next((n for n, (a, b) in windows.items() if a <= at <= b + 10), "play")
            drops[where] = drops.get(where, 0) + 1
    play_samples = [s for _start, s, phase in run.samples if phase == "play"]
    moves = sum(1 for a in run.attempts if a.outcome == "acked")
    return {
        "tables": len(tables),
        "sockets": len(everyone),
        "workers": server.workers,
        "connected_in": connected_in,
        "faults": faults,
        "cuts": {
            "asked": cut_result.get("asked", args.cuts),
            "made": len(cut_attempts),
            "applied": sum(1 for a in cut_attempts if a.nonce in applied),
            "shown": common.percentiles_ms([a.shown_after_cut for a in cut_attempts if a.shown_after_cut >= 0]),
            "resend_refused": sum(1 for a in cut_attempts if a.resend_refused),
        },
        "moves_play": common.percentiles_ms(play_samples),
        "moves_play_n": len(play_samples),
        "acked": len(stats.acked_nonces),
        "applied": len(applied),
        "acked_plain": sum(1 for a in run.attempts if a.outcome == "acked" and not a.cut),
        "busy": sum(1 for a in run.attempts if a.outcome == "busy"),
        "failed": sum(1 for a in run.attempts if a.outcome == "failed"),
        "pupil_moves": moves,
        "cpu_ms_per_move": cpu_used * 1000 / moves if moves else 0.0,
        "play_seconds": play_seconds,
        "refused": sum(1 for t in everyone if t.refused),
        "drops": drops,
        "not_connected": sum(1 for t in everyone if t.version < 0),
        "problems": problems,
        "load": os.getloadavg(),
    }, watch


def report(r: dict[str, Any], log: dict[str, Any], ci: bool) -> bool:
    print(
        f"== faults: {r['tables']} tables, {r['sockets']} sockets, {r['workers']} workers, own PostgreSQL"
        f" + Redis (load avg {'/'.join(f'{x:.2f}' for x in r['load'])}); connected in {r['connected_in']:.1f} s"
    )
    m50, m99, mmax = r["moves_play"]
    print(f"  move round trip in normal play: n={r['moves_play_n']} p50 {m50:.0f} ms p99 {m99:.0f} ms max {mmax:.0f} ms")
    five_hundreds = 0
    for f in r["faults"]:
        p50, p99, pmax = f["recovery"]
        shakes = ", ".join(f"{status} at +{at:.1f} s" for status, at in f["handshakes"])
        print(
            f"  {f['name']}: away {f['outage']:.1f} s (stop took {f['stopped_in']:.1f} s, start"
            f" {f['started_in']:.1f} s); every screen current after it was back:"
            f" p50 {p50 / 1000:.2f} s p99 {p99 / 1000:.2f} s max {pmax / 1000:.2f} s"
            f" ({f['sockets']} sockets, {f['recovery_missing']} never within 60 s;"
            f" {f['outage_line_shown']} showed the outage line)"
        )
        print(
            f"    during it (answer at seconds after the fault began): handshakes {shakes}"
            f" (101 = let in, 0 = none within 15 s; {f['late_screens']} drew a screen);"
            f" /healthz {f['healthz'][0]} at +{f['healthz'][1]:.1f} s, / {f['home'][0]} at +{f['home'][1]:.1f} s"
        )
        t50, _t99, tmax = f["taps_during_applied_after_back"]
        print(
            f"    taps during it: {f['taps_during']} ({f['taps_during_acked']} applied,"
            f" {f['taps_during_busy']} answered 'un instant', {f['taps_during_failed']} 'oups'); applied after it was back:"
            f" p50 +{t50 / 1000:.2f} s max +{tmax / 1000:.2f} s; first move after it was back"
            f" +{f['first_ack_after_back']:.2f} s"
        )
        a50, a99, _amax = f["moves_after"]
        print(f"    moves tapped 2-20 s after it was back: p50 {a50:.0f} ms p99 {a99:.0f} ms")
        five_hundreds += sum(1 for status, _at in f["handshakes"] if status >= 500)
        five_hundreds += (f["home"][0] >= 500) + (f["healthz"][0] == 500)
    c = r["cuts"]
    s50, _s99, smax = c["shown"]
    print(
        f"  cuts: {c['made']}/{c['asked']} tablets cut right after a move: {c['applied']} applied once,"
        f" shown after reconnecting p50 {s50 / 1000:.2f} s max {smax / 1000:.2f} s;"
        f" {c['resend_refused']} resends of the same move refused"
    )
    print(
        f"  pupil moves applied {r['applied']} = acknowledged {r['acked_plain']} + cut and applied {c['applied']}"
        f" ({r['busy']} taps answered 'un instant', {r['failed']} 'oups'); server CPU {r['cpu_ms_per_move']:.1f} ms per pupil move"
    )
    if five_hundreds:
        print(f"  HTTP 500: {five_hundreds} answers (handshakes or pages) during the outages")
    print(f"  sockets: refused {r['refused']}, dropped {r['drops'] or 0}, never connected {r['not_connected']}")
    print(f"  server log: {log['tracebacks']} tracebacks in all; expected (connection errors of an outage):")
    for line, n in log["expected"].most_common():
        print(f"    {n:4d} x {line}")
    print("  outage lines:")
    for line, n in log["notices"].most_common(12):
        print(f"    {n:4d} x {line}")
    unexpected: dict[str, int] = {}
    for line in log["unexpected"]:
        key = common._squash(line, 700)
        unexpected[key] = unexpected.get(key, 0) + 1
    for line, n in sorted(unexpected.items(), key=lambda item: -item[1])[:10]:
        print(f"  UNEXPECTED: {n} x {line}")
    for problem in r["problems"][:20]:
        print(f"  CHECK FAILED: {problem}")
    failed = bool(r["problems"] or log["unexpected"] or five_hundreds)
    if not ci:
        failed = failed or bool(r["refused"] or r["drops"] or r["not_connected"])
    print("faults:", "FAIL" if failed else "OK")
    return not failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=75)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--outage", type=float, default=5.0, help="seconds each service is away")
    parser.add_argument("--warm", type=float, default=20.0, help="seconds of play before the first fault")
    parser.add_argument("--gap", type=float, default=15.0, help="seconds of play between faults")
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--probes", type=int, default=5, help="handshakes tried during each outage")
    parser.add_argument("--pace", default="2,6")
    parser.add_argument("--no-choose", dest="choose", action="store_false")
    parser.add_argument("--ci", action="store_true", help="fail only on moves, screens, tracebacks, 500s")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="faults-"))
    with common.own_stack(max_connections=100) as (pg, redis):
        env = common.stack_env(pg, redis, "faults")
        common.migrate(env)
        server = common.Server(args.workers, env, workdir / "server.log")
        # This process reads the database too, without a pool (PostgreSQL restarts).
        os.environ.update({**env, "DB_POOL_MAX_SIZE": "0"})
        tables = tablets.setup_tables(args.tables)
        from django.db import connections

        connections.close_all()
        with server:
            result, watch = asyncio.run(play(server, pg, redis, env["DATABASE_URL"], tables, args))
            time.sleep(1.0)
    watch.phase = "stop"
    watch.finish()  # the lines of the stop too
    log = watch.classify(("redis-outage", "redis-recovery", "postgres-outage", "postgres-recovery"))
    print(f"  (server log: {server.log_path})")
    sys.exit(0 if report(result, log, args.ci) else 1)


if __name__ == "__main__":
    main()
