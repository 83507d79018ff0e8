"""Hashes and tokens are interchangeable with the Node apps': vectors produced by packages/db/src/password.ts
and by jose (what packages/data-access signs with) for the same inputs."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time

import pytest

from api_contract.problems import ProblemError
from api_core import security
from api_core.security import hash_password_sync, issue_token, verify_bearer, verify_password_sync

# hashPassword("seed-password-1", salt 00 01 … 0f) in packages/db/src/password.ts
NODE_HASH = (
    "scrypt$16384$8$5$AAECAwQFBgcICQoLDA0ODw==$"
    "HYmfPvGzB0mIK7Z69lL+7jUHB5mjB90VEHYBPISHc3dGfMhjwMFOfUhQ3UmK69N/SHW2ELLik2WRysfk2E9gZQ=="
)
# hashPassword("pässwörd 😀 long enough", salt f0 e0 … 00): non-ASCII passwords are hashed as UTF-8 on both sides
NODE_HASH_UNICODE = (
    "scrypt$16384$8$5$8ODQwLCgkIBwYFBAMCAQAA==$"
    "mYhULEW+7xnEHkx1dpcloCaDT3riqwknLJgH54zEheU6XlvM6uZPak8mtss+U7TpcSYLqi8nvRgRUBClWbPUOA=="
)
# The same password and salt as NODE_HASH under the parameters used before (p=1): it still verifies, and needs a rehash.
NODE_HASH_P1 = (
    "scrypt$16384$8$1$AAECAwQFBgcICQoLDA0ODw==$"
    "E2UjUoX0RPOg+XhoKaV8xHLRHyoC69vJMdJ29aOMPxbSX1eES/dFHZGY34P8aJIcOJ+bXAz+q7V7MyeovQmzrA=="
)
# new SignJWT({}).setProtectedHeader({alg: "HS256", typ: "JWT"}).setSubject(USER).setIssuedAt(1700000000)
#   .setExpirationTime(1700003600).sign(utf8("interop-secret-0123456789"))
SECRET = "interop-secret-0123456789"
USER = "00000000-0000-4000-8000-000000000001"
NODE_TOKEN = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMH0."
    "IWqiWEGhJ-KwxRk2-Gjl6OuXOS7shAPnY_gWwOUiTUc"
)


def test_a_password_hashes_to_the_bytes_node_writes() -> None:
    assert hash_password_sync("seed-password-1", bytes(range(16))) == NODE_HASH
    assert hash_password_sync("pässwörd 😀 long enough", bytes(range(0xF0, -1, -0x10))) == NODE_HASH_UNICODE


def test_a_hash_written_by_node_verifies() -> None:
    assert verify_password_sync("seed-password-1", NODE_HASH)
    assert verify_password_sync("pässwörd 😀 long enough", NODE_HASH_UNICODE)
    assert not verify_password_sync("seed-password-2", NODE_HASH)


def test_a_hash_with_older_parameters_verifies_and_needs_a_rehash() -> None:
    assert verify_password_sync("seed-password-1", NODE_HASH_P1)
    assert security.needs_rehash(NODE_HASH_P1)
    assert not security.needs_rehash(NODE_HASH)
    assert security.needs_rehash("bcrypt$x")


def test_a_fresh_hash_has_the_shared_format_and_a_random_salt() -> None:
    first, second = hash_password_sync("password-123"), hash_password_sync("password-123")
    assert first != second
    kind, n, r, p, salt, key = first.split("$")
    assert (kind, n, r, p) == ("scrypt", "16384", "8", "5")
    assert len(base64.b64decode(salt)) == 16 and len(base64.b64decode(key)) == 64
    assert verify_password_sync("password-123", first)


@pytest.mark.parametrize("stored", [None, "", "bcrypt$x", "scrypt$16384$8$1$AAAA", "scrypt$x$8$1$AAAA$AAAA"])
def test_no_hash_or_a_malformed_one_never_verifies(stored: str | None) -> None:
    assert not verify_password_sync("anything", stored)


@pytest.mark.parametrize("stored", [None, "", "bcrypt$x", "scrypt$16384$8$1$AAAA"])
def test_an_unknown_user_or_a_bad_hash_costs_one_scrypt_like_a_wrong_password(
    stored: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work is compared, not the clock: one scrypt at the real cost (N, r, p, key length) either way."""
    calls: list[tuple[int, int, int, int]] = []
    real = security._scrypt

    def counted(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
        calls.append((n, r, p, length))
        return real(password, salt, n, r, p, length)

    monkeypatch.setattr(security, "_scrypt", counted)
    assert not verify_password_sync("wrong-password", NODE_HASH)
    wrong_password = calls.copy()
    calls.clear()
    assert not verify_password_sync("wrong-password", stored)
    assert wrong_password == [(16384, 8, 5, 64)]
    assert calls == wrong_password


def test_a_token_is_byte_for_byte_what_jose_signs() -> None:
    assert issue_token(USER, SECRET, now=1700000000) == NODE_TOKEN


def _token(header: dict, claims: dict, secret: str = SECRET, digest=hashlib.sha256) -> str:
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    signing_input = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(claims).encode())}"
    signature = hmac.new(secret.encode(), signing_input.encode(), digest).digest()
    return f"{signing_input}.{b64(signature)}"


def _claims(**overrides: object) -> dict:
    now = int(time.time())
    return {"sub": USER, "iat": now, "exp": now + 3600, **overrides}


def test_a_node_issued_token_is_accepted_until_it_expires() -> None:
    fresh = _token({"alg": "HS256", "typ": "JWT"}, _claims())
    assert verify_bearer(f"Bearer {fresh}", SECRET) == USER
    assert verify_bearer(f"  bearer {fresh}\u00a0", SECRET) == USER  # JavaScript's trim, case-insensitive scheme
    with pytest.raises(ProblemError, match="expired"):
        verify_bearer(f"Bearer {NODE_TOKEN}", SECRET)


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "Bearer a.b",
        "Bearer not-a-jwt",
        f"Bearer {_token({'alg': 'HS256'}, _claims(), secret='another-secret-0123456789')}",
        f"Bearer {_token({'alg': 'HS512'}, _claims(), digest=hashlib.sha512)}",
        "Bearer "
        + base64.urlsafe_b64encode(b'{"alg":"none"}').rstrip(b"=").decode()
        + "."
        + base64.urlsafe_b64encode(json.dumps(_claims()).encode()).rstrip(b"=").decode()
        + ".x",
        f"Bearer {_token({'alg': 'HS256'}, {'sub': USER})}",  # no exp
        f"Bearer {_token({'alg': 'HS256'}, {'exp': int(time.time()) + 60})}",  # no sub
        f"Bearer {_token({'alg': 'HS256'}, _claims(sub=5))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(sub='not-a-uuid'))}",  # a sub that is not a UUID names no user
        f"Bearer {_token({'alg': 'HS256'}, _claims(iat='yesterday'))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(exp=int(time.time()) - 1))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(nbf=int(time.time()) + 600))}",
        # Timing claims that are not JSON numbers (PyJWT reads "9999999999" and true as numbers): 401, as jose.
        f"Bearer {_token({'alg': 'HS256'}, _claims(exp='9999999999'))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(exp=True))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(nbf=True))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(nbf='0'))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(iat=None))}",
        f"Bearer {_token({'alg': 'HS256'}, _claims(iat=[1]))}",
    ],
)
def test_anything_but_a_valid_hs256_token_is_a_401(authorization: str | None) -> None:
    with pytest.raises(ProblemError) as raised:
        verify_bearer(authorization, SECRET)
    assert raised.value.status == 401
    assert raised.value.headers["www-authenticate"].startswith("Bearer")


# RFC 6750 §3: no bearer token at all is a bare challenge; a bearer token that was refused says `invalid_token`.
@pytest.mark.parametrize("authorization", [None, "", "  ", "Basic dXNlcjpwYXNz", "Token abc", "Bearerx a.b.c"])
def test_no_bearer_token_is_challenged_with_bearer_alone(authorization: str | None) -> None:
    with pytest.raises(ProblemError) as raised:
        verify_bearer(authorization, SECRET)
    assert raised.value.headers == {"www-authenticate": "Bearer"}


@pytest.mark.parametrize(
    "authorization",
    ["Bearer", "bearer  a.b.c", "Bearer not-a-jwt", "Bearer a.b.c", f"Bearer {NODE_TOKEN}", "BEARER\ta.b.c"],
)
def test_a_refused_bearer_token_is_an_invalid_token(authorization: str) -> None:
    with pytest.raises(ProblemError) as raised:
        verify_bearer(authorization, SECRET)
    assert raised.value.headers == {"www-authenticate": 'Bearer error="invalid_token"'}


def test_claims_jose_ignores_are_ignored() -> None:
    # jose accepts an iat in the future and an audience nobody asked about; so must every implementation.
    token = _token({"alg": "HS256"}, _claims(iat=int(time.time()) + 10_000, aud="someone"))
    assert verify_bearer(f"Bearer {token}", SECRET) == USER


def test_a_burst_of_hashes_leaves_the_default_executor_to_dns_lookups():
    """A new database connection resolves its host on the default executor: it must not wait behind logins."""

    async def burst() -> tuple[int, int]:
        finished = 0

        async def one() -> None:
            nonlocal finished
            await security.hash_password("burst")
            finished += 1

        hashes = [asyncio.ensure_future(one()) for _ in range(12)]
        await asyncio.sleep(0)
        await asyncio.get_running_loop().getaddrinfo("localhost", None)
        looked_up = finished
        await asyncio.gather(*hashes)
        return looked_up, finished

    looked_up, finished = asyncio.run(burst())
    # On the default executor (min(32, cores + 4) threads) the lookup would queue behind most of the twelve.
    assert looked_up < 4
    assert finished == 12
