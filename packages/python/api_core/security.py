"""Password hashes and tokens in the formats every implementation reads and writes (docs/api.md,
"Formats every implementation shares").

- scrypt, stored as `scrypt$N$r$p$<salt base64>$<hash base64>` (N=16384, r=8, p=5, 16-byte salt, 64-byte key),
  byte for byte what packages/db/src/password.ts writes, so a user registered through any implementation logs
  in through every other; a hash stored with other parameters verifies with its own and `needs_rehash`;
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
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import jwt
from jwt.warnings import InsecureKeyLengthWarning

from api_contract.types import GUID_PATTERN, JS_WHITESPACE, js_regex

from .principal import unauthorized

# OWASP's scrypt minimum is N=2^17, r=8, p=1 (128 MiB a hash); N=2^14, r=8, p=5 is listed as of equal strength in
# 16 MiB. packages/db/src/password.ts uses the same: a hash made by either verifies in both and is never re-made.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 16384, 8, 5
KEY_LENGTH, SALT_LENGTH = 64, 16
MAX_MEM = 64 * 1024 * 1024
TOKEN_TTL_SECONDS = 3600

# JWT_SECRET is checked at start-up (32+ bytes, as in every implementation: settings.py); the tests' interop vectors
# use shorter keys, which PyJWT would warn about on every token.
warnings.filterwarnings("ignore", category=InsecureKeyLengthWarning)

# A well-formed hash of no one's password: checking against it costs what a real check costs, so that a login
# with an unknown e-mail takes as long as one with a wrong password.
_ZERO_SALT, _ZERO_KEY = base64.b64encode(bytes(16)).decode(), base64.b64encode(bytes(64)).decode()
DUMMY_HASH = f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_ZERO_SALT}${_ZERO_KEY}"


def needs_rehash(stored: str) -> bool:
    """A stored hash made with other parameters than today's (or of another shape): hash it anew at the next login."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return True
    current = parts[1:4] == [str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P)]
    try:
        return not current or len(base64.b64decode(parts[5])) != KEY_LENGTH
    except ValueError:
        return True


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


# scrypt is CPU-bound (and releases the GIL): it runs on threads of its own, never on the event loop, and not on
# the default executor, whose DNS lookups for new database connections would otherwise wait behind a burst of logins.
_HASHING = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="scrypt")


async def hash_password(password: str) -> str:
    return await asyncio.get_running_loop().run_in_executor(_HASHING, hash_password_sync, password)


async def verify_password(password: str, stored: str | None) -> bool:
    return await asyncio.get_running_loop().run_in_executor(_HASHING, verify_password_sync, password, stored)


def issue_token(user_id: str, secret: str, now: int | None = None) -> str:
    """`{"alg":"HS256","typ":"JWT"}` . `{"sub","iat","exp"}`: the bytes jose's SignJWT produces for the same claims."""
    issued = int(time.time()) if now is None else now
    return jwt.encode({"sub": user_id, "iat": issued, "exp": issued + TOKEN_TTL_SECONDS}, secret, algorithm="HS256")


_BEARER = re.compile(r"Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)", re.IGNORECASE | re.ASCII)
# Any `bearer` scheme, whatever follows: what decides between a missing token and a refused one.
_BEARER_SCHEME = re.compile(f"bearer(?:[{JS_WHITESPACE}]|$)", re.IGNORECASE)
_is_uuid = js_regex(GUID_PATTERN)


def _bearer_token(authorization: str | None) -> str:
    """The token of an `authorization` header, or a 401: no header or another scheme is a missing token."""
    value = (authorization or "").strip(JS_WHITESPACE)
    if not value or not _BEARER_SCHEME.match(value):
        raise unauthorized("An `authorization: Bearer <token>` header is required.", "missing")
    match = _BEARER.fullmatch(value)
    if not match:
        raise unauthorized("The bearer token is not a JWT.")
    return match[1]


def verify_bearer(authorization: str | None, secret: str) -> str:
    """The user id a bearer token names; 401 for anything but a valid, unexpired HS256 token whose `sub` is a UUID."""
    token = _bearer_token(authorization)
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            # jose (the Node apps) ignores `aud` unless asked and accepts an `iat` in the future; so do these.
            options={"require": ["sub", "exp"], "verify_aud": False, "verify_iat": False},
        )
    except jwt.ExpiredSignatureError:
        raise unauthorized("The token has expired.") from None
    except jwt.PyJWTError:
        raise unauthorized("The token is not valid.") from None
    # jose refuses a timing claim that is not a JSON number; PyJWT reads `"exp": "9999999999"` as a number and
    # `true` as 1, and skips a null `iat`. README "Edges of HTTP" (packages/contract): all of them are a 401.
    for name in ("exp", "nbf", "iat"):
        if name in claims and (isinstance(claims[name], bool) or not isinstance(claims[name], (int, float))):
            raise unauthorized("The token is not valid.")
    subject = claims.get("sub")
    if not isinstance(subject, str) or not _is_uuid(subject):
        raise unauthorized("The token names no user.")
    return subject
