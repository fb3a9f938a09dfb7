"""The project's ASGI application plus the benchmarks' bare echo route.

``manage.py serve --app benchmarks.echo_asgi:application`` serves it, so the
load test measures the echo floor on exactly the stack (workers, channel layer)
that serves the tables.
"""

from benchmarks.bench_ws import make_application

application = make_application()
