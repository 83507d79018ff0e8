"""Configuration from the environment, read and checked once at start-up (as packages/server's loadConfig does)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from api_contract.types import MAX_SAFE_INTEGER, js_to_number

LOG_LEVELS = ("fatal", "error", "warn", "info", "debug", "trace", "silent")

# RFC 7518 §3.2: an HS256 key of at least 256 bits.
MIN_SECRET_BYTES = 32

# Secrets this repository has shipped as examples: known to everyone, so never a key (packages/server's twin).
PLACEHOLDER_SECRETS = ("change-me-to-a-long-random-string", "compose-placeholder-secret-change-me")


def secret_problem(secret: str) -> str | None:
    """Why JWT_SECRET cannot sign tokens, or None when it can (server's secretProblem, word for word)."""
    if not secret:
        return "JWT_SECRET is required (32 or more random bytes, e.g. `openssl rand -base64 32`)"
    if secret in PLACEHOLDER_SECRETS:
        return "JWT_SECRET is a placeholder from this repository; set a random one"
    # Bytes, as Node's Buffer.byteLength counts them; surrogateescape gives back what the environment held.
    size = len(secret.encode("utf-8", "surrogateescape"))
    if size < MIN_SECRET_BYTES:
        return f"JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes, got {size}"
    return None


# packages/db's DEFAULT_STATEMENT_TIMEOUT_MS.
DEFAULT_STATEMENT_TIMEOUT_MS = 5_000

# The auth routes' rate limit (docs/api.md "Abuse limits"): AUTH_RATE_LIMIT requests per client address and route in
# a fixed window of this many seconds (server's AUTH_RATE_WINDOW_SECONDS).
AUTH_RATE_WINDOW_SECONDS = 60
DEFAULT_AUTH_RATE_LIMIT = 10


class ConfigError(ValueError):
    """A configuration the process cannot start with; its message lists every problem."""


@dataclass(frozen=True)
class Settings:
    port: int
    host: str
    database_url: str
    jwt_secret: str
    log_level: str
    pool_size: int
    workers: int
    shutdown_grace_seconds: float
    auth_rate_limit: int = DEFAULT_AUTH_RATE_LIMIT
    # The bound on every statement, its wait for a lock included (DB_STATEMENT_TIMEOUT_MS): past it, a 503.
    statement_timeout_ms: int = DEFAULT_STATEMENT_TIMEOUT_MS

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """Reads PORT, HOST, DATABASE_URL, JWT_SECRET, LOG_LEVEL, DB_POOL_SIZE, DB_STATEMENT_TIMEOUT_MS,
        AUTH_RATE_LIMIT, WEB_CONCURRENCY and SHUTDOWN_GRACE_MS; raises one error that lists every problem."""
        problems: list[str] = []

        def integer(name: str, default: int, low: int, high: int) -> int:
            raw = env.get(name, "")
            if raw == "":
                return default
            if not raw.isdigit() or not low <= int(raw) <= high:
                problems.append(f'{name} must be an integer from {low} to {high}, got "{raw}"')
                return default
            return int(raw)

        def requests_per_window(name: str, default: int) -> int:
            # Read as the Node apps read it, with JavaScript's Number() (`1e3` and `10.0` are whole numbers there), so
            # that a value starts every implementation or none.
            raw = env.get(name, "")
            if raw == "":
                return default
            value = js_to_number(raw)
            if not value.is_integer() or not 1 <= value <= MAX_SAFE_INTEGER:
                problems.append(f'{name} must be a whole number of requests, 1 or more, got "{raw}"')
                return default
            return int(value)

        port = integer("PORT", 3000, 0, 65535)
        database_url = env.get("DATABASE_URL", "")
        if not database_url:
            problems.append("DATABASE_URL is required")
        elif not re.fullmatch(r"postgres(ql)?://\S+", database_url):
            problems.append("DATABASE_URL must be a postgres:// or postgresql:// URL")
        jwt_secret = env.get("JWT_SECRET", "")
        if secret := secret_problem(jwt_secret):
            problems.append(secret)
        log_level = env.get("LOG_LEVEL") or "info"
        if log_level not in LOG_LEVELS:
            problems.append(f'LOG_LEVEL must be one of {", ".join(LOG_LEVELS)}, got "{log_level}"')
        pool_size = integer("DB_POOL_SIZE", 10, 1, 1000)
        statement_timeout_ms = integer("DB_STATEMENT_TIMEOUT_MS", DEFAULT_STATEMENT_TIMEOUT_MS, 1, 600_000)
        auth_rate_limit = requests_per_window("AUTH_RATE_LIMIT", DEFAULT_AUTH_RATE_LIMIT)
        workers = integer("WEB_CONCURRENCY", 1, 1, 64)
        grace_ms = integer("SHUTDOWN_GRACE_MS", 10_000, 0, 3_600_000)
        # One problem is one line, several a list: the message server's loadConfig writes.
        if len(problems) == 1:
            raise ConfigError(f"invalid configuration: {problems[0]}")
        if problems:
            raise ConfigError("invalid configuration:\n  - " + "\n  - ".join(problems))
        return cls(
            port=port,
            host=env.get("HOST") or "0.0.0.0",
            database_url=database_url,
            jwt_secret=jwt_secret,
            log_level=log_level,
            pool_size=pool_size,
            statement_timeout_ms=statement_timeout_ms,
            workers=workers,
            shutdown_grace_seconds=grace_ms / 1000,
            auth_rate_limit=auth_rate_limit,
        )


def load_settings_or_exit(env: Mapping[str, str] = os.environ) -> Settings:
    """Settings.from_env for a process's entry point: a configuration it cannot start with is printed as its message
    alone (no traceback around it), and the process exits 2, as for any usage error (server's loadConfigOrExit)."""
    try:
        return Settings.from_env(env)
    except ConfigError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
