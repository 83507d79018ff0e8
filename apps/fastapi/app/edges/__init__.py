"""The contract's edges of HTTP, each where FastAPI's own behaviour differs from the contract's, one module a
responsibility, so that main.py and the routers read like FastAPI's own examples:

- strict_paths: the path as sent, no trailing-slash redirect, HEAD wherever GET is (the route class);
- json_body: the body read within its limit and parsed as JSON.parse does (415 → 413 → malformed JSON);
- validate: the request's parts validated on the contract's models, in its order, as dependencies;
- json_response: JSON rendered as JSON.stringify writes it, with `charset=utf-8`;
- problems: every error as a problem document (the exception handlers, validation errors translated);
- security_headers, request_id: headers on every response, errors included;
- rate_limit: the auth routes' abuse limit (429 with `retry-after`);
- http_limits: the head size, time and Host limits uvicorn lacks (its HTTP protocol, installed by server.py).
"""
