"""The environment is checked as packages/server's loadConfig checks it, with the same messages: the contract suite
starts every implementation with a bad configuration and expects the same lines from each."""

from __future__ import annotations

import pytest

from api_core.settings import (
    AUTH_RATE_WINDOW_SECONDS,
    PLACEHOLDER_SECRETS,
    ConfigError,
    Settings,
    load_settings_or_exit,
)

GOOD = {"DATABASE_URL": "postgres://u:p@127.0.0.1:5432/db", "JWT_SECRET": "0123456789abcdef0123456789abcdef"}


def test_a_good_environment() -> None:
    settings = Settings.from_env({**GOOD, "PORT": "8080"})
    assert (settings.port, settings.host, settings.log_level) == (8080, "0.0.0.0", "info")
    assert settings.jwt_secret == GOOD["JWT_SECRET"]


@pytest.mark.parametrize(
    ("secret", "problem"),
    [
        (None, "JWT_SECRET is required (32 or more random bytes, e.g. `openssl rand -base64 32`)"),
        ("", "JWT_SECRET is required (32 or more random bytes, e.g. `openssl rand -base64 32`)"),
        ("x" * 31, "JWT_SECRET must be at least 32 bytes, got 31"),
        ("short", "JWT_SECRET must be at least 32 bytes, got 5"),
        *(
            (secret, "JWT_SECRET is a placeholder from this repository; set a random one")
            for secret in PLACEHOLDER_SECRETS
        ),
    ],
)
def test_a_secret_too_short_or_a_placeholder_is_refused_in_one_line(secret: str | None, problem: str) -> None:
    env = {"DATABASE_URL": GOOD["DATABASE_URL"], **({"JWT_SECRET": secret} if secret is not None else {})}
    with pytest.raises(ConfigError) as raised:
        Settings.from_env(env)
    assert str(raised.value) == f"invalid configuration: {problem}"


def test_a_secret_is_measured_in_bytes() -> None:
    # 16 two-byte characters are 32 bytes, as Buffer.byteLength counts them.
    assert Settings.from_env({**GOOD, "JWT_SECRET": "é" * 16}).jwt_secret == "é" * 16
    with pytest.raises(ConfigError, match="got 30"):
        Settings.from_env({**GOOD, "JWT_SECRET": "é" * 15})


def test_several_problems_are_one_message_listing_each() -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_env({"JWT_SECRET": "short", "DATABASE_URL": "mysql://u@h/db"})
    assert str(raised.value) == (
        "invalid configuration:\n"
        "  - DATABASE_URL must be a postgres:// or postgresql:// URL\n"
        "  - JWT_SECRET must be at least 32 bytes, got 5"
    )


def test_the_auth_rate_limit_defaults_to_10_a_minute() -> None:
    assert Settings.from_env(GOOD).auth_rate_limit == 10
    assert Settings.from_env({**GOOD, "AUTH_RATE_LIMIT": ""}).auth_rate_limit == 10
    assert AUTH_RATE_WINDOW_SECONDS == 60


# What JavaScript's Number() makes of them, as server's loadConfig reads AUTH_RATE_LIMIT.
@pytest.mark.parametrize(
    ("raw", "limit"),
    [("1", 1), ("3", 3), ("1000000000", 10**9), (" 7\n", 7), ("1e3", 1000), ("10.0", 10), ("0x10", 16)],
)
def test_the_auth_rate_limit_is_a_whole_number_of_requests(raw: str, limit: int) -> None:
    assert Settings.from_env({**GOOD, "AUTH_RATE_LIMIT": raw}).auth_rate_limit == limit


@pytest.mark.parametrize("raw", ["0", "-1", "2.5", "ten", " ", "Infinity", "NaN", "9007199254740992", "1_000"])
def test_an_auth_rate_limit_that_is_no_limit_is_refused_with_cores_message(raw: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_env({**GOOD, "AUTH_RATE_LIMIT": raw})
    assert str(raised.value) == (
        f'invalid configuration: AUTH_RATE_LIMIT must be a whole number of requests, 1 or more, got "{raw}"'
    )


def test_an_entry_point_prints_the_message_alone_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        load_settings_or_exit({**GOOD, "JWT_SECRET": PLACEHOLDER_SECRETS[0]})
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == "invalid configuration: JWT_SECRET is a placeholder from this repository; set a random one\n"
    assert captured.out == ""


def test_the_statement_timeout_defaults_to_five_seconds_and_reads_whole_milliseconds() -> None:
    assert Settings.from_env(GOOD).statement_timeout_ms == 5000
    assert Settings.from_env({**GOOD, "DB_STATEMENT_TIMEOUT_MS": "250"}).statement_timeout_ms == 250


@pytest.mark.parametrize("raw", ["0", "-1", "1.5", "1e3", "five", "600001"])
def test_a_statement_timeout_that_is_no_bound_is_refused_with_the_node_apps_message(raw: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_env({**GOOD, "DB_STATEMENT_TIMEOUT_MS": raw})
    assert str(raised.value) == (
        f'invalid configuration: DB_STATEMENT_TIMEOUT_MS must be an integer from 1 to 600000, got "{raw}"'
    )
