"""Password hashes and tokens in the formats every implementation reads and writes (docs/api.md,
"Formats every implementation shares").

- scrypt, stored as `scrypt$N$r$p$<salt base64>$<hash base64>` (N=16384, r=8, p=1, 16-byte salt, 64-byte key),
  byte for byte what packages/db/src/password.ts writes, so a user registered through any implementation logs
  in through every other;
- JWT HS256 signed with JWT_SECRET, `sub` = user id, `iat`, `exp` one hour later; no other algorithm is
  accepted (PyJWT with `algorithms=["HS256"]`), and the claims are checked as jose checks them in the Node apps.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import re
import time
import warnings
from typing import Any

import jwt
from jwt.warnings import InsecureKeyLengthWarning

from api_contract.problems import ProblemError
from api_contract.types import JS_WHITESPACE

SCRYPT_N, SCRYPT_R, SCRYPT_P = 16384, 8, 1
KEY_LENGTH, SALT_LENGTH = 64, 16
MAX_MEM = 64 * 1024 * 1024
TOKEN_TTL_SECONDS = 3600

# A well-formed hash of no one's password: checking against it costs what a real check costs, so that a login
# with an unknown e-mail takes as long as one with a wrong password.
# JWT_SECRET is checked at start-up (16+ characters, as in every implementation); PyJWT's advice to use 32+
# bytes belongs in the README, not in a warning on every request.
warnings.filterwarnings("ignore", category=InsecureKeyLengthWarning)

DUMMY_HASH = f"scrypt$16384$8$1${base64.b64encode(bytes(16)).decode()}${base64.b64encode(bytes(64)).decode()}"


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=MAX_MEM, dklen=length)


def hash_password_sync(password: str, salt: bytes | None = None) -> str:
    salt = os.urandom(SALT_LENGTH) if salt is None else salt
    key = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, KEY_LENGTH)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${base64.b64encode(salt).decode()}${base64.b64encode(key).decode()}"


def verify_password_sync(password: str, stored: str | None) -> bool:
    """A missing hash, or one not of the scrypt shape, still spends one scrypt (on the dummy hash) and fails;
    a scrypt-shaped hash whose parameters do not parse fails at once."""
    parts = (stored or DUMMY_HASH).split("$")
    valid = stored is not None and len(parts) == 6 and parts[0] == "scrypt"
    _, n, r, p, salt_b64, hash_b64 = parts if valid else DUMMY_HASH.split("$")
    try:
        expected = base64.b64decode(hash_b64)
        salt = base64.b64decode(salt_b64)
        actual = _scrypt(password, salt, int(n), int(r), int(p), len(expected)) if expected else b""
    except ValueError:
        return False
    return valid and bool(expected) and hmac.compare_digest(actual, expected)


# scrypt is CPU-bound (and releases the GIL): it runs on the default thread pool, never on the event loop.
async def hash_password(password: str) -> str:
    return await asyncio.get_running_loop().run_in_executor(None, hash_password_sync, password)


async def verify_password(password: str, stored: str | None) -> bool:
    return await asyncio.get_running_loop().run_in_executor(None, verify_password_sync, password, stored)


def issue_token(user_id: str, secret: str, now: int | None = None) -> str:
    """`{"alg":"HS256","typ":"JWT"}` . `{"sub","iat","exp"}`: the bytes jose's SignJWT produces for the same claims."""
    issued = int(time.time()) if now is None else now
    return jwt.encode({"sub": user_id, "iat": issued, "exp": issued + TOKEN_TTL_SECONDS}, secret, algorithm="HS256")


_BEARER = re.compile(r"Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)", re.IGNORECASE | re.ASCII)


def _unauthorized(detail: str) -> ProblemError:
    return ProblemError("unauthorized", detail)


def verify_bearer(authorization: str | None, secret: str) -> str:
    """The user id a bearer token names; 401 for anything but a valid, unexpired HS256 token."""
    if not authorization:
        raise _unauthorized("An `authorization: Bearer <token>` header is required.")
    match = _BEARER.fullmatch(authorization.strip(JS_WHITESPACE))
    if not match:
        raise _unauthorized("The authorization header is not a bearer token.")
    try:
        claims: dict[str, Any] = jwt.decode(
            match[1],
            secret,
            algorithms=["HS256"],
            # jose (the Node apps) ignores `aud` unless asked and accepts an `iat` in the future; so do these.
            options={"require": ["sub", "exp"], "verify_aud": False, "verify_iat": False},
        )
    except jwt.ExpiredSignatureError:
        raise _unauthorized("The token has expired.") from None
    except jwt.PyJWTError:
        raise _unauthorized("The token is not valid.") from None
    # jose refuses a timing claim that is not a JSON number; PyJWT reads `"exp": "9999999999"` as a number and
    # `true` as 1, and skips a null `iat`. README "Edges of HTTP" (packages/contract): all of them are a 401.
    for name in ("exp", "nbf", "iat"):
        if name in claims and (isinstance(claims[name], bool) or not isinstance(claims[name], (int, float))):
            raise _unauthorized("The token is not valid.")
    subject = claims.get("sub")
    if not isinstance(subject, str):
        raise _unauthorized("The token names no user.")
    return subject
