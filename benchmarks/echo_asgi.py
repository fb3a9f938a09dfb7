"""The project's ASGI application plus the benchmarks' bare echo route.

``manage.py serve --app benchmarks.echo_asgi:application`` serves it, so the
load test measures the echo floor on exactly the stack (workers, channel layer)
that serves the tables.

For the load test's post-mortem: SIGUSR1 prints the stack of every asyncio task
of the worker to its log (the load test sends it when a stop takes too long,
so a connection that holds the shutdown shows where it waits).
"""

import asyncio
import atexit
import gc
import signal
import sys
import time

from benchmarks.tablets import make_application

_application = make_application()
_installed = False


def _dump_tasks() -> None:
    tasks = asyncio.all_tasks()
    print(f"TASKDUMP {len(tasks)} tasks", file=sys.stderr, flush=True)
    for task in tasks:
        print(f"TASKDUMP {task!r}", file=sys.stderr, flush=True)
        # The whole await chain, not only the task's outer frame: where the
        # innermost coroutine really waits.
        coro = task.get_coro()
        depth = 0
        while coro is not None and depth < 40:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is not None:
                print(
                    f"TASKDUMP   at {frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}",
                    file=sys.stderr,
                    flush=True,
                )
            coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            depth += 1


# The collector's pauses, by generation, printed to the server log when the
# worker stops (the load test reports them: a full pass stops every thread).
_gc_started = 0.0
_gc_pauses: dict[int, list[float]] = {}


def _gc_watch(phase: str, info: dict[str, int]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        pause = (time.perf_counter() - _gc_started) * 1000
        _gc_pauses.setdefault(info["generation"], []).append(pause)


def _gc_report() -> None:
    for generation, pauses in sorted(_gc_pauses.items()):
        print(
            f"GCPAUSE generation {generation}: {len(pauses)} passes,"
            f" {sum(pauses):.0f} ms in all, longest {max(pauses):.1f} ms",
            file=sys.stderr,
            flush=True,
        )


gc.callbacks.append(_gc_watch)
atexit.register(_gc_report)


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    global _installed
    if not _installed:
        _installed = True
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, _dump_tasks)
    return await _application(scope, receive, send)

