"""Configuration from the environment, read and checked once at start-up (as packages/core's loadConfig does)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

LOG_LEVELS = ("fatal", "error", "warn", "info", "debug", "trace", "silent")


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

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """Reads PORT, HOST, DATABASE_URL, JWT_SECRET, LOG_LEVEL, DB_POOL_SIZE, WEB_CONCURRENCY and
        SHUTDOWN_GRACE_MS; raises one error that lists every problem."""
        problems: list[str] = []

        def integer(name: str, default: int, low: int, high: int) -> int:
            raw = env.get(name, "")
            if raw == "":
                return default
            if not raw.isdigit() or not low <= int(raw) <= high:
                problems.append(f'{name} must be an integer from {low} to {high}, got "{raw}"')
                return default
            return int(raw)

        port = integer("PORT", 3000, 0, 65535)
        database_url = env.get("DATABASE_URL", "")
        if not database_url:
            problems.append("DATABASE_URL is required")
        elif not re.fullmatch(r"postgres(ql)?://\S+", database_url):
            problems.append("DATABASE_URL must be a postgres:// or postgresql:// URL")
        jwt_secret = env.get("JWT_SECRET", "")
        if len(jwt_secret) < 16:
            problems.append("JWT_SECRET is required (at least 16 characters)")
        log_level = env.get("LOG_LEVEL") or "info"
        if log_level not in LOG_LEVELS:
            problems.append(f'LOG_LEVEL must be one of {", ".join(LOG_LEVELS)}, got "{log_level}"')
        pool_size = integer("DB_POOL_SIZE", 10, 1, 1000)
        workers = integer("WEB_CONCURRENCY", 1, 1, 64)
        grace_ms = integer("SHUTDOWN_GRACE_MS", 10_000, 0, 3_600_000)
        if problems:
            raise ValueError("invalid configuration:\n  - " + "\n  - ".join(problems))
        return cls(
            port=port,
            host=env.get("HOST") or "0.0.0.0",
            database_url=database_url,
            jwt_secret=jwt_secret,
            log_level=log_level,
            pool_size=pool_size,
            workers=workers,
            shutdown_grace_seconds=grace_ms / 1000,
        )
