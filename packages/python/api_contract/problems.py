"""RFC 9457 problem details, the one error format of the contract.

`ProblemError` is what routes, dependencies and the data access raise for a client error; the exception
handlers in errors.py render it. Types, titles and statuses come from the contract's catalogue.
"""

from __future__ import annotations

from typing import Any, TypedDict

from . import exported as contract

PROBLEM_CONTENT_TYPE = "application/problem+json"


class FieldError(TypedDict):
    path: str
    message: str


# `retry-after` of every 503: a data-access failure that is not the client's fault is worth retrying shortly.
RETRY_AFTER_SECONDS = 1


class ProblemError(Exception):
    def __init__(
        self,
        kind: str,
        detail: str,
        *,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        spec = contract.problems()[kind]
        self.kind = kind
        self.status: int = spec["status"]
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}
        # Every 503 says when to retry, as in the Node apps (RETRY_AFTER_SECONDS in packages/contract).
        if kind == "unavailable":
            self.headers.setdefault("retry-after", str(RETRY_AFTER_SECONDS))

    def to_json(self) -> dict[str, Any]:
        spec = contract.problems()[self.kind]
        body: dict[str, Any] = {
            "type": spec["type"],
            "title": spec["title"],
            "status": spec["status"],
            "detail": self.detail,
        }
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    @classmethod
    def from_json(cls, status: int, body: dict[str, Any]) -> ProblemError:
        """A problem recorded earlier (idempotency replay), rebuilt from its JSON body."""
        kind = next(
            (k for k, p in contract.problems().items() if p["type"] == body.get("type") and p["status"] == status),
            "conflict",
        )
        return cls(kind, body.get("detail", ""), errors=body.get("errors"))


def validation_problem(errors: list[FieldError], part: str) -> ProblemError:
    return ProblemError("validation", f"The request {part} is not valid.", errors=errors)


def unsupported_media_type() -> ProblemError:
    return ProblemError("unsupportedMediaType", "Send the body as application/json (UTF-8).")


def payload_too_large(limit: int) -> ProblemError:
    return ProblemError("payloadTooLarge", f"The body is larger than {limit} bytes.")


def malformed_json() -> ProblemError:
    return ProblemError("malformedJson", "The body is not valid JSON.")


def prototype_poisoning() -> ProblemError:
    return ProblemError(
        "validation",
        "The body carries forbidden keys.",
        errors=[{"path": "body", "message": "must not contain __proto__ or constructor.prototype keys"}],
    )


def unavailable() -> ProblemError:
    return ProblemError("unavailable", "The database cannot be reached; try again shortly.")
