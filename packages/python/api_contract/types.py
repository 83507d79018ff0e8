"""Pydantic types with the contract's semantics, which are Zod's running on JavaScript values.

Pydantic's built-in constraints stop at the first failing check of a field and know nothing of JavaScript, so the
types the models use are small annotated types that

- run a field's checks in the contract's order and report every one that fails (as Zod does),
- measure strings in code points, trim the characters JavaScript's `String.prototype.trim` trims, anchor regular
  expressions at the very end of the string (JavaScript's `$`, not Python's "before a final newline"),
- accept a JSON number as an integer when it is integral and within ±(2^53 − 1), as `z.int()` does,
- and describe themselves in JSON Schema exactly as the contract's OpenAPI document does, so that
  tests/test_models_vs_openapi.py can compare the two.

Errors are `contract` (a failed check: Zod carries on with the object's other checks) or `contract_type` (the
value has the wrong type: Zod stops there).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import InitErrorDetails, PydanticCustomError, core_schema

# The contract's patterns, spelled as its OpenAPI document spells them (Python's `re` reads `\u0000` too).
NO_NUL_PATTERN = r"^[^\u0000]*$"
GUID_PATTERN = r"^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"
EMAIL_PATTERN = (
    r"^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$"
)
QUERY_INT_PATTERN = r"^[0-9]{1,10}$"
INCLUDE_PATTERN = r"^(user|product)(,(user|product))?$"
TIMESTAMP_PATTERN = (
    r"^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])"
    r"-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3])"
    r":[0-5]\d:[0-5]\d\.\d{3}(?:Z))$"
)

MAX_SAFE_INTEGER = 2**53 - 1

# What JavaScript's String.prototype.trim removes (WhiteSpace and LineTerminator); str.strip() differs from it.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def js_regex(pattern: str) -> Callable[[str], bool]:
    """A test with JavaScript's anchoring: `$` is the end of the string, never "before a final newline"."""
    compiled = re.compile(pattern)
    return lambda value: compiled.fullmatch(value) is not None


def well_formed(value: str) -> str:
    """Lone UTF-16 surrogates (JSON allows `"\\ud800"`) become U+FFFD, as node-postgres encodes them."""
    return _LONE_SURROGATE.sub("\ufffd", value) if _LONE_SURROGATE.search(value) else value


def received(value: Any) -> str:
    """How Zod names a JSON value's type in its messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def issue(kind: str, message: str, **ctx: Any) -> PydanticCustomError:
    return PydanticCustomError(kind, "{message}", {"message": message, **ctx})


# ---- checks: one step of a string's pipeline --------------------------------------------------------------------


class Check:
    """One step of a string field: returns the (possibly rewritten) value and a message when it fails."""

    def __call__(self, value: str) -> tuple[str, str | None]:
        raise NotImplementedError

    def describe(self, schema: dict[str, Any], patterns: list[str]) -> None:
        """Adds what this step contributes to the field's JSON Schema."""


class NoNul(Check):
    def __call__(self, value: str) -> tuple[str, str | None]:
        return value, "must not contain NUL characters" if "\x00" in value else None

    def describe(self, schema: dict[str, Any], patterns: list[str]) -> None:
        patterns.append(NO_NUL_PATTERN)


class Pattern(Check):
    def __init__(self, pattern: str, message: str, json_format: str | None = None) -> None:
        self.pattern = pattern
        self.test = js_regex(pattern)
        self.message = message
        self.json_format = json_format

    def __call__(self, value: str) -> tuple[str, str | None]:
        return value, None if self.test(value) else self.message

    def describe(self, schema: dict[str, Any], patterns: list[str]) -> None:
        if self.json_format:
            schema["format"] = self.json_format
        patterns.append(self.pattern)


class MinLength(Check):
    def __init__(self, minimum: int) -> None:
        self.minimum = minimum

    def __call__(self, value: str) -> tuple[str, str | None]:
        ok = len(value) >= self.minimum
        return value, None if ok else f"Too small: expected string to have >={self.minimum} characters"

    def describe(self, schema: dict[str, Any], patterns: list[str]) -> None:
        schema["minLength"] = self.minimum


class MaxLength(Check):
    def __init__(self, maximum: int, message: str | None = None) -> None:
        self.maximum = maximum
        self.message = message or f"Too big: expected string to have <={maximum} characters"

    def __call__(self, value: str) -> tuple[str, str | None]:
        return value, None if len(value) <= self.maximum else self.message

    def describe(self, schema: dict[str, Any], patterns: list[str]) -> None:
        schema["maxLength"] = self.maximum


class Trim(Check):
    def __call__(self, value: str) -> tuple[str, str | None]:
        return value.strip(JS_WHITESPACE), None


class Lower(Check):
    def __call__(self, value: str) -> tuple[str, str | None]:
        return value.lower(), None


class Distinct(Check):
    """A comma list names each item at most once."""

    def __call__(self, value: str) -> tuple[str, str | None]:
        items = value.split(",")
        return value, None if len(set(items)) == len(items) else "must not repeat a relation"


class Validated:
    """An `Annotated` marker whose `validate` alone turns the JSON value into the field's value (or raises)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(self.validate)

    def validate(self, value: Any) -> Any:
        raise NotImplementedError


class Bounded(Validated):
    """A `Validated` integer between `minimum` and `maximum`, both included."""

    def __init__(self, minimum: int = -MAX_SAFE_INTEGER, maximum: int = MAX_SAFE_INTEGER) -> None:
        self.minimum = minimum
        self.maximum = maximum


class Text(Validated):
    """`Annotated[str, Text(NoNul(), MinLength(1), …)]`: a JSON string put through the contract's checks."""

    def __init__(self, *checks: Check) -> None:
        self.checks = checks

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        out: dict[str, Any] = {"type": "string"}
        patterns: list[str] = []
        for check in self.checks:
            check.describe(out, patterns)
        if len(patterns) == 1:
            out["pattern"] = patterns[0]
        elif patterns:
            out["allOf"] = [{"pattern": p} for p in patterns]
        return out

    def validate(self, value: Any) -> str:
        if not isinstance(value, str):
            raise issue("contract_type", f"Invalid input: expected string, received {received(value)}")
        messages: list[str] = []
        for check in self.checks:
            value, message = check(value)
            if message:
                messages.append(message)
        if messages:
            raise issue("contract", "; ".join(messages), messages=messages)
        return well_formed(value)


class JsInt(Bounded):
    """`z.int()` with bounds: a JSON number that is integral and safe (`5.0` is 5), then minimum and maximum."""

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}

    def validate(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise issue("contract_type", f"Invalid input: expected number, received {received(value)}")
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            raise issue("contract_type", "Invalid input: expected int, received number")
        messages = []
        if value > MAX_SAFE_INTEGER:
            messages.append(f"Too big: expected int to be <={MAX_SAFE_INTEGER}")
        if value < -MAX_SAFE_INTEGER:
            messages.append(f"Too small: expected int to be >={-MAX_SAFE_INTEGER}")
        if value < self.minimum:
            messages.append(f"Too small: expected number to be >={self.minimum}")
        if value > self.maximum:
            messages.append(f"Too big: expected number to be <={self.maximum}")
        if messages:
            raise issue("contract", "; ".join(messages), messages=messages)
        return int(value)


class QueryInt(Bounded):
    """A query integer: decimal digits only on the wire (`2`, not `+2`, `2.0` or `0x2`), then the bounds."""

    matches = staticmethod(js_regex(QUERY_INT_PATTERN))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "pattern": QUERY_INT_PATTERN}

    def validate(self, value: Any) -> int:
        if not isinstance(value, str):
            raise issue("contract_type", f"Invalid input: expected string, received {received(value)}")
        if not self.matches(value):
            raise issue("contract", "must be a non-negative integer")
        number = int(value)
        if number < self.minimum:
            raise issue("contract", f"Too small: expected number to be >={self.minimum}")
        if number > self.maximum:
            raise issue("contract", f"Too big: expected number to be <={self.maximum}")
        return number

    @classmethod
    def js_value(cls, raw: Any) -> Any:
        """The value a refinement sees for this field: the number when the digits parsed, else the raw string."""
        return int(raw) if isinstance(raw, str) and cls.matches(raw) else raw


class QueryBool(Validated):
    """A query boolean: `true` or `false` on the wire, nothing else. Anything else is an enum's failure to Zod, which
    stops the object's refinements (a `contract_type` here)."""

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "enum": ["true", "false"]}

    def validate(self, value: Any) -> bool:
        if not isinstance(value, str) or value not in ("true", "false"):
            raise issue("contract_type", "must be true or false")
        return value == "true"


# ---- JavaScript comparisons, for the one refinement that compares two fields -------------------------------------

_JS_DECIMAL = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity)")
_JS_PREFIXED = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")


def js_to_number(value: Any) -> float:
    """JavaScript's `Number(value)` for the strings and numbers a query refinement can see."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip(JS_WHITESPACE)
    if text == "":
        return 0.0
    if _JS_PREFIXED.fullmatch(text):
        try:
            return float(int(text, 0))
        except OverflowError:  # past a double's range: Infinity, as in JavaScript
            return math.inf
    if _JS_DECIMAL.fullmatch(text):
        return float(text.replace("Infinity", "inf"))
    return math.nan


def js_less_or_equal(a: Any, b: Any) -> bool:
    """JavaScript's `a <= b`: strings compare as strings, anything else as numbers (NaN compares false)."""
    if isinstance(a, str) and isinstance(b, str):
        return a.encode("utf-16-be", "surrogatepass") <= b.encode("utf-16-be", "surrogatepass")
    x, y = js_to_number(a), js_to_number(b)
    return not (math.isnan(x) or math.isnan(y)) and x <= y


# ---- adding an object-level issue to a failed (or passed) validation --------------------------------------------

ABORTING = frozenset({"contract_type", "missing", "model_type", "literal_error", "enum", "string_type"})


def aborted(error: ValidationError | None) -> bool:
    """True when an issue stops Zod from running the object's refinements (a wrong type, a missing field)."""
    return error is not None and any(e["type"] in ABORTING for e in error.errors())


def with_issues(title: str, error: ValidationError | None, extra: list[InitErrorDetails]) -> ValidationError:
    """`error`'s issues followed by `extra`, as one ValidationError."""
    details: list[InitErrorDetails] = []
    for e in error.errors() if error else []:
        ctx = e.get("ctx")
        if e["type"] in ("contract", "contract_type"):
            details.append(
                {"type": PydanticCustomError(e["type"], "{message}", ctx), "loc": e["loc"], "input": e["input"]}
            )
        elif ctx is not None:
            details.append({"type": e["type"], "loc": e["loc"], "input": e["input"], "ctx": ctx})
        else:
            details.append({"type": e["type"], "loc": e["loc"], "input": e["input"]})
    return ValidationError.from_exception_data(title, details + extra)
