"""Entry point: `python -m app.server`. Reads the environment, serves the app with uvicorn (uvloop when installed,
httptools with the contract's limits added: edges/http_limits.py), WEB_CONCURRENCY worker processes (default 1).

Shutdown is uvicorn's: on SIGTERM/SIGINT it stops accepting connections, lets in-flight requests finish (up to
SHUTDOWN_GRACE_MS) and runs the lifespan shutdown (closes the database pool). Uvicorn then raises the signal again
with the handler it found at start; that handler is ours and exits 0, as the Node apps do after a graceful
shutdown (Python's default for SIGTERM would end the process "killed by SIGTERM", which a supervisor reads as a
crash).
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile

import uvicorn

from api_core.settings import load_settings_or_exit

from .edges.http_limits import KEEP_ALIVE_TIMEOUT_S

# LOG_LEVEL uses pino's names, as every implementation does; uvicorn's equivalents:
UVICORN_LOG_LEVELS = {"fatal": "critical", "error": "error", "warn": "warning", "info": "info",
                      "debug": "debug", "trace": "trace", "silent": "critical"}  # fmt: skip


def main() -> None:
    # A configuration it cannot start with (a JWT_SECRET too short or a placeholder, …): the message alone and exit
    # 2, as the Node apps do.
    settings = load_settings_or_exit()

    if settings.workers > 1 and "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        # Every worker writes its metrics here; /metrics, served by any worker, adds them all up.
        directory = tempfile.mkdtemp(prefix="fastapi-metrics-")
        atexit.register(shutil.rmtree, directory, ignore_errors=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory

    # Uvicorn re-raises the signal it shut down for, with this handler back in place: a graceful exit, code 0.
    signal.signal(signal.SIGTERM, _exit_gracefully)

    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        loop="auto",
        # uvicorn's httptools protocol with the head size, head and request time limits and the Host check of
        # every implementation (edges/http_limits.py); the keep-alive timeout is uvicorn's own, stated.
        http="app.edges.http_limits:LimitedHttpToolsProtocol",
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT_S,
        lifespan="on",
        log_level=UVICORN_LOG_LEVELS[settings.log_level],
        # The access line is the request line and the status, never a header: no `authorization` or `cookie` value
        # reaches a log (uvicorn's trace level writes headers as `<...>`; tests/test_server.py checks both).
        access_log=settings.log_level in ("info", "debug", "trace"),
        server_header=False,
        # The client's address is the connection's: no forwarding header is trusted (uvicorn's default trusts
        # `x-forwarded-for` from 127.0.0.1), so none can move a request to another counter of the auth rate limit.
        proxy_headers=False,
        timeout_graceful_shutdown=int(settings.shutdown_grace_seconds) or None,
    )


def _exit_gracefully(signum: int, _frame: object) -> None:
    sys.exit(0)


if __name__ == "__main__":
    main()
