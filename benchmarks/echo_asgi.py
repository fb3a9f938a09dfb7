"""The project's ASGI application plus the benchmarks' bare echo route.

``manage.py serve --app benchmarks.echo_asgi:application`` serves it, so the
load test measures the echo floor on exactly the stack (workers, channel layer)
that serves the tables.

For the load test's post-mortem: SIGUSR1 prints the stack of every asyncio task
of the worker to its log (the load test sends it when a stop takes too long,
so a connection that holds the shutdown shows where it waits).
"""

import asyncio
import signal
import sys

from benchmarks.bench_ws import make_application

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


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    global _installed
    if not _installed:
        _installed = True
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, _dump_tasks)
    return await _application(scope, receive, send)
