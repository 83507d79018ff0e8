"""The contract's transport rules for any Python server (packages/server/src/http.ts's twin): request ids, which
bodies are JSON, the body limit, and parsing JSON as JavaScript's `JSON.parse` plus secure-json-parse do
(apps/express/src/edges/json-body.ts is the reference). Reading the body is the server's own (apps/fastapi's
app/edges/json_body.py, bench/baselines/raw_asgi.py).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from api_contract.problems import malformed_json, prototype_poisoning

BODY_LIMIT_BYTES = 1024 * 1024
# The contract accepts 1,000 levels of arrays/objects and answers deeper bodies as malformed JSON. Python's parser
# and encoder recurse, so the recursion limit (1,000 by default) is raised to leave room above that depth.
MAX_JSON_DEPTH = 1000
sys.setrecursionlimit(max(sys.getrecursionlimit(), MAX_JSON_DEPTH + 500))
# A client's own `x-request-id` is kept when it is 1–128 characters of [A-Za-z0-9._-].
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


_JSON_SUBTYPE = re.compile(r"application/[a-z0-9.+-]+\+json")
_UTF8_CHARSET = re.compile(r'charset="?utf-8"?')


def is_json_content_type(header: str | None) -> bool:
    """`application/json` or any `application/*+json`, with at most a UTF-8 charset."""
    if not header:
        return False
    essence, *params = (part.strip() for part in header.lower().split(";"))
    if essence != "application/json" and not _JSON_SUBTYPE.fullmatch(essence):
        return False
    charset = next((p for p in params if p.startswith("charset=")), None)
    return charset is None or _UTF8_CHARSET.fullmatch(charset) is not None


def parse_json_body(raw: bytes) -> Any:
    """A JSON body from its bytes, as server's parseJsonBody (README "Edges of HTTP" in packages/contract): strict
    UTF-8 (surrogates refused), one leading byte-order mark ignored (`utf-8-sig`), a second one is not JSON."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise malformed_json() from None
    return parse_json(text) if text else None


# ---- JSON.parse, as JavaScript sees numbers ----------------------------------------------------------------------

_MAX_SAFE = 2**53 - 1


def js_number(text: str) -> int | float:
    """A JSON number as the double JavaScript makes of it, kept as an int when integral and safe (`1.0` is 1)."""
    value = float(text)
    return int(value) if value.is_integer() and -_MAX_SAFE <= value <= _MAX_SAFE else value


def js_int(text: str) -> int | float:
    return int(text) if len(text) <= 15 else js_number(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# secure-json-parse only scans a parsed value when the text could hold such a key, in any escaping.
_SUSPECT_PROTO = re.compile(
    r'"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])'
    r'(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:'
)
_SUSPECT_CONSTRUCTOR = re.compile(
    r'"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)'
    r'(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:'
)


def _poisoned(value: Any) -> bool:
    """A `__proto__` key, or a `constructor` object with a `prototype` key, anywhere in the value."""
    pending = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if "__proto__" in node:
                return True
            constructor = node.get("constructor")
            if isinstance(constructor, dict) and "prototype" in constructor:
                return True
            pending.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            pending.extend(v for v in node if isinstance(v, (dict, list)))
    return False


def json_text_too_deep(text: str) -> bool:
    """True when the JSON text nests arrays/objects deeper than MAX_JSON_DEPTH (brackets in strings ignored)."""
    if len(text) <= 2 * MAX_JSON_DEPTH:
        return False
    depth = 0
    in_string = False
    escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif c in "]}":
            depth -= 1
    return False


def parse_json(text: str) -> Any:
    """JSON.parse that refuses `__proto__` and `constructor.prototype` keys anywhere (a 400 either way).

    Python's json module is stricter nowhere and laxer only in accepting NaN and Infinity, which are refused;
    numbers come out as JavaScript would hold them. `text` is decoded: a byte-order mark still in it is refused
    (json.loads does)."""
    if json_text_too_deep(text):
        raise malformed_json()
    try:
        value = json.loads(text, parse_float=js_number, parse_int=js_int, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise malformed_json() from None
    if (_SUSPECT_PROTO.search(text) or _SUSPECT_CONSTRUCTOR.search(text)) and _poisoned(value):
        raise prototype_poisoning()
    return value
