"""`make loadtest`: a school's worth of tablets against the real server stack.

One command, several configurations, each against the echo floor of the same
stack (the same workers and channel layer, no game):

- ``embedded``: SQLite + in-memory channel layer, one worker (the default);
- ``pg1``: PostgreSQL + Redis, ``manage.py serve --workers 1``;
- ``pg2``: PostgreSQL + Redis, ``manage.py serve --workers 2``, and the *kill
  test*: one worker gets SIGKILL mid-run, its tablets reconnect with backoff
  (as htmx's ws extension does) to whichever worker accepts them.

Every table is a Chasse game of 3 pupils and a bot, plus a projector socket.
The whole school connects at once; on the PostgreSQL + Redis stack everyone
then pauses (``--idle`` seconds, longer than Redis' read timeout used to be)
before playing at a child's pace (``--pace``, seconds before each tap). A
pupil plays as on a tablet: taps a card (its screen shows the card chosen and
the announcing panel), then, a moment later, plays it (``--no-choose`` skips the
first tap).

Printed per configuration: the move round trip (a pupil's tap -> every socket of
the table shows the new version) p50/p95/p99, the mover's own screen, moves/s,
bytes per socket per move, sockets refused, sockets dropped, errors in the
server log, and the machine load. The kill run splits the move round trip in
three: two workers sharing the school before the kill (the figure the
configuration is judged by), the taps sent around the kill (its tablets
reconnecting with backoff), and the rest, with every socket on the surviving
worker. Afterwards the database is checked: every
table's event log and move list have no gap and no duplicate, the moves the
tablets saw acknowledged are exactly the pupils' moves stored, and every
socket's last screen equals the engine's view of the stored state.

A refused or dropped socket, a server error or a failed check fails the run
(exit status 1), whatever the latency: latency is reported, never asserted.

The school, its tablets and one configuration's run are in
``benchmarks/tablets.py``, shared with the fault run, the soak and the capacity
search; this file runs each configuration in a process of its own and reports.

    .venv/bin/python benchmarks/loadtest.py                       # everything, 75 tables
    .venv/bin/python benchmarks/loadtest.py --configs pg2 --tables 20 --seconds 10   # CI
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.tablets import RECOVERY_SECONDS, child  # noqa: E402


def report(r: dict[str, Any]) -> bool:
    f50, f95, f99 = r["floor"]
    m50, m95, m99 = r["move"]
    o50, o95, o99 = r["mover"]
    load = "/".join(f"{x:.2f}" for x in r["load"])
    title = {
        "embedded": "embedded default (SQLite + in-memory layer), 1 worker",
        "pg1": "PostgreSQL + Redis, 1 worker",
        "pg2": f"PostgreSQL + Redis, {r['workers']} workers" + (", one killed mid-run" if r.get("kill") else ""),
    }[r["config"]]
    print(f"== {title}: {r['tables']} tables, {r['sockets']} sockets (load avg {load})")
    before, after = r["speed"]
    print(f"  machine: 10 M additions took {before:.2f} s before the run, {after:.2f} s after")
    during = sorted(r.get("speed_during") or [])
    if during:
        spread = during[-1] / during[0] if during[0] else 0.0
        print(
            f"  machine during play: 1 M additions took {during[0]:.0f} to {during[-1]:.0f} ms"
            f" (median {during[len(during) // 2]:.0f}, {len(during)} samples)"
            + (
                f": it slowed x{spread:.1f} meanwhile, so compare these latencies with care"
                if spread >= 1.5
                else ""
            )
        )
    print(f"  echo floor   n={r['floor_n']:5d}  p50 {f50:7.1f} ms  p95 {f95:7.1f} ms  p99 {f99:7.1f} ms")
    print(f"  table move   n={r['move_n']:5d}  p50 {m50:7.1f} ms  p95 {m95:7.1f} ms  p99 {m99:7.1f} ms")
    print(f"  mover's own  n={r['move_n']:5d}  p50 {o50:7.1f} ms  p95 {o95:7.1f} ms  p99 {o99:7.1f} ms")
    print(
        f"  {r['moves_per_s']:.1f} moves/s, server CPU {r['cpu_ms_per_move']:.1f} ms per move,"
        f" {r['bytes_per_socket_move']:.0f} bytes per socket per move"
        f" ({r.get('wire_per_socket_move', 0):.0f} on the wire, deflated),"
        f" all connected in {r['connected_in']:.1f} s"
    )
    print(
        f"  cores busy during play: server {r['server_cores']:.2f}, load client {r['client_cores']:.2f}"
        f" (of {os.cpu_count()})"
    )
    print(
        f"  refused {r['refused']}, dropped {r['dropped']} (echo floor groups broken {r['floor_broken']}), server errors {r['server_errors']},"
        f" pupil moves acknowledged {r['acked']}"
    )
    if r.get("before") and r.get("recovery"):
        windows = [
            (f"{r['workers']} workers, before the kill", "before"),
            (f"within {RECOVERY_SECONDS:.0f} s of the kill", "recovery"),
            ("after it, one worker left", "after"),
        ]
        for label, key in windows:
            if r.get(key):
                w50, w95, w99 = r[key]
                print(f"   {label:<32} n={r[key + '_n']:5d}  p50 {w50:7.1f} ms  p95 {w95:7.1f} ms  p99 {w99:7.1f} ms")
    if r.get("kill"):
        print(
            f"  kill test: worker {r['kill'].get('pid')} SIGKILLed, {r['killed_sockets_closed']} sockets closed,"
            f" {r['reconnects']} reconnects, {r['across_reconnect']} moves straddled a reconnect"
        )
    for line in r.get("gc_pauses", []):
        print(f"  garbage collector, {line}")
    for line in r.get("slow_stop", []):
        print(f"  slow stop (after the run): {line[:200]}")
    for line in r["server_error_lines"]:
        print(f"  server log: {line[:200]}")
    for problem in r["problems"][:20]:
        print(f"  CHECK FAILED: {problem}")
    ok = not (r["refused"] or r["dropped"] or r["server_errors"] or r["problems"])
    print(f"  -> {'OK' if ok else 'FAIL'}  (server log: {r['log']})")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="embedded,pg1,pg2")
    parser.add_argument("--tables", type=int, default=75)
    parser.add_argument("--seconds", type=float, default=45.0, help="of play, per configuration")
    parser.add_argument("--floor-seconds", type=float, default=15.0)
    parser.add_argument("--pace", default="2,6", help="seconds before a pupil taps, min,max")
    parser.add_argument("--idle", type=float, default=8.0, help="pause with no move (Redis stacks)")
    parser.add_argument("--workers", type=int, default=2, help="workers of the pg2 configuration")
    parser.add_argument("--no-kill", dest="kill", action="store_false")
    parser.add_argument(
        "--no-choose", dest="choose", action="store_false",
        help="play a card in one message (no first tap that chooses it)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print("RESULT " + json.dumps(child(args.child, args)), flush=True)
        return
    ok = True
    for config in args.configs.split(","):
        # One process per configuration: Django's settings are read once.
        argv = [sys.executable, __file__, "--child", config, *sys.argv[1:]]
        proc = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
        if proc.returncode != 0 or line is None:
            print(proc.stdout)
            print(f"== {config}: the run itself failed (exit {proc.returncode})")
            ok = False
            continue
        ok = report(json.loads(line[len("RESULT "):])) and ok
    print("loadtest:", "OK" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
