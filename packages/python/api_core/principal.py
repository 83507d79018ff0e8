"""Who is calling, and the refusals that follow from it (packages/data-access/src/principal.ts): written once for
FastAPI's dependencies and the raw-asgi baseline, which call these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from api_contract.models import Role
from api_contract.problems import ProblemError


@dataclass(frozen=True, slots=True)
class Principal:
    """The token's user, as the database knows them now (a deleted user or a changed role counts at once)."""

    id: str
    role: Role


def unauthorized(detail: str, challenge: Literal["missing", "invalid_token"] = "invalid_token") -> ProblemError:
    """A 401 with its RFC 6750 §3 challenge: plain `Bearer` when the request carried no bearer token, `Bearer
    error="invalid_token"` when the token it carried was refused."""
    header = "Bearer" if challenge == "missing" else 'Bearer error="invalid_token"'
    return ProblemError("unauthorized", detail, headers={"www-authenticate": header})


def forbidden(detail: str = "This needs the admin role.") -> ProblemError:
    """A 403: the caller is known, and their role may not do this (RFC 6750's `insufficient_scope`)."""
    return ProblemError("forbidden", detail, headers={"www-authenticate": 'Bearer error="insufficient_scope"'})


def require_admin(principal: Principal) -> None:
    """The role check every caller's own mechanism calls (a FastAPI dependency, the baseline's route): admins pass."""
    if principal.role != "admin":
        raise forbidden()
