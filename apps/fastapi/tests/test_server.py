"""The entry point as a process (`python -m app.server`, what the image and the harness start): a JWT_SECRET it
cannot sign with, or an AUTH_RATE_LIMIT that is no limit, is refused in one line with exit 2; nothing a client sends
to prove who it is — the `authorization` and `cookie` values, a password — reaches its logs, at the most verbose
level there is; a client that leaves mid-body is not logged as the server's error; and the rate limit counts the
connection's address, whatever forwarding header a client sends."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from api_core.security import issue_token
from api_core.settings import PLACEHOLDER_SECRETS

APP_DIR = Path(__file__).resolve().parent.parent
SECRET = "log-test-secret-0123456789abcdef0123"
UNREACHABLE = "postgres://nobody:secret@127.0.0.1:9/nothing"


def start(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.server"],
        cwd=APP_DIR,
        env={"PATH": os.environ.get("PATH", ""), **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize(
    ("secret", "line"),
    [
        ("x" * 31, "invalid configuration: JWT_SECRET must be at least 32 bytes, got 31"),
        *((secret, "invalid configuration: JWT_SECRET is a placeholder from this repository; set a random one")
          for secret in PLACEHOLDER_SECRETS),
    ],
)  # fmt: skip
def test_a_secret_too_short_or_a_placeholder_is_refused_at_start(secret: str, line: str) -> None:
    process = start({"DATABASE_URL": UNREACHABLE, "JWT_SECRET": secret, "PORT": "0"})
    stdout, stderr = process.communicate(timeout=30)
    assert (process.returncode, stdout, stderr) == (2, "", f"{line}\n")


@pytest.mark.parametrize("limit", ["0", "-1", "2.5", "ten", "9007199254740992"])
def test_an_auth_rate_limit_that_is_no_limit_is_refused_at_start(limit: str) -> None:
    process = start({"DATABASE_URL": UNREACHABLE, "JWT_SECRET": SECRET, "PORT": "0", "AUTH_RATE_LIMIT": limit})
    stdout, stderr = process.communicate(timeout=30)
    line = f'invalid configuration: AUTH_RATE_LIMIT must be a whole number of requests, 1 or more, got "{limit}"'
    assert (process.returncode, stdout, stderr) == (2, "", f"{line}\n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(env: dict[str, str]) -> tuple[subprocess.Popen[str], http.client.HTTPConnection]:
    """The server started on a free port with `env`, and a connection to it once it answers."""
    port = free_port()
    process = start({"DATABASE_URL": UNREACHABLE, "JWT_SECRET": SECRET, "PORT": str(port), "HOST": "127.0.0.1", **env})
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/health")
            connection.getresponse().read()
            return process, connection
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"the server did not answer: {process.communicate(timeout=30)}")


def stop(process: subprocess.Popen[str]) -> str:
    """SIGTERM, then what it wrote."""
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=30)
    return stdout + stderr


def test_no_credential_reaches_the_logs() -> None:
    process, connection = serve({"LOG_LEVEL": "trace"})
    token = issue_token("00000000-0000-4000-8000-000000000001", SECRET)
    cookie = "session=cookie-value-0123456789"
    password = "password-in-a-body-0123"
    try:
        requests = [
            ("GET", "/auth/me", {"authorization": f"Bearer {token}", "cookie": cookie}, None),  # 503: no database
            ("GET", "/auth/me", {"authorization": f"Bearer {token}x"}, None),  # 401
            ("GET", "/users", {"authorization": "Basic dXNlcjpwYXNzd29yZA==", "cookie": cookie}, None),  # 401
            ("POST", "/auth/login", {"content-type": "application/json"}, {"email": "a@b.co", "password": password}),
        ]
        statuses = []
        for method, path, headers, body in requests:
            connection.request(method, path, body=json.dumps(body) if body else None, headers=headers)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.close()
        assert statuses == [503, 401, 401, 503]
    finally:
        logs = stop(process)
    assert '"GET /auth/me HTTP/1.1" 503' in logs  # the access log was on
    for secret in (token, token.split(".")[2], "dXNlcjpwYXNzd29yZA", "cookie-value-0123456789", password):
        assert secret not in logs


def test_the_rate_limit_trusts_no_forwarding_header() -> None:
    # uvicorn trusts `x-forwarded-for` from 127.0.0.1 unless told not to (server.py: proxy_headers=False).
    process, connection = serve({"AUTH_RATE_LIMIT": "2", "LOG_LEVEL": "silent"})
    try:
        statuses = []
        for forwarded in (None, None, "203.0.113.7", "203.0.113.8"):
            headers = {"content-type": "application/json", **({"x-forwarded-for": forwarded} if forwarded else {})}
            connection.request("POST", "/auth/login", body='{"email":"a@b.co","password":"x"}', headers=headers)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.close()
        assert statuses == [503, 503, 429, 429]  # the database is unreachable: a 503 counts as well
    finally:
        stop(process)


def test_a_client_that_leaves_mid_body_is_not_logged_as_the_servers_error() -> None:
    process, connection = serve({"LOG_LEVEL": "info"})
    connection.close()
    port = connection.port
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            head = b"POST /auth/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            client.sendall(head + b'content-length: 100\r\n\r\n{"email":')
            time.sleep(0.3)  # the server is reading the body when the client goes
        time.sleep(0.3)
    finally:
        logs = stop(process)
    assert "unhandled error" not in logs
    assert "Traceback" not in logs
