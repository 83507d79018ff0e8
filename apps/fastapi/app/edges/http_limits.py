"""The HTTP limits every implementation configures (README "Edges of HTTP" in packages/contract; the Node apps
read the same numbers from @api-ref/server's limits.ts).

Uvicorn has a keep-alive timeout, but no bound on the size of a request head, no time limit for a head or a
whole request (a client sending its head a byte a second holds a connection for as long as it likes), and it
serves an HTTP/1.1 request without `host`. `LimitedHttpToolsProtocol`, uvicorn's httptools protocol with these
added, answers as node:http does: 431 for a head over 16 KiB, 408 and close for a head or request that takes too
long, 400 for an HTTP/1.1 request without `host` (RFC 9112 §3.2), 417 for an `expect` other than 100-continue.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

# Request line plus header fields (the URL counts: a longer one is a 431 too).
MAX_HEADER_BYTES = 16 * 1024
# The whole head must arrive within this; the whole request, body included, within the next.
HEADERS_TIMEOUT_S = 10.0
REQUEST_TIMEOUT_S = 30.0
# An idle keep-alive connection is closed after this (uvicorn's `timeout_keep_alive`).
KEEP_ALIVE_TIMEOUT_S = 5


class _Refused(Exception):
    """Raised from a parser callback to stop parsing and answer `status` (httptools wraps it; see data_received)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0
        self._has_host = False
        self._unmet_expectation = False
        self._head_timer: asyncio.TimerHandle | None = None
        self._request_timer: asyncio.TimerHandle | None = None

    # -- timers: armed when a connection opens and when a request begins, cancelled as its head / body complete --

    def _arm(self) -> None:
        if self._request_timer is None:
            self._head_timer = self.loop.call_later(HEADERS_TIMEOUT_S, self._too_slow)
            self._request_timer = self.loop.call_later(REQUEST_TIMEOUT_S, self._too_slow)

    def _cancel(self, which: str) -> None:
        timer = getattr(self, which)
        if timer is not None:
            timer.cancel()
            setattr(self, which, None)

    def _too_slow(self) -> None:
        self._cancel("_head_timer")
        self._cancel("_request_timer")
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete and self.cycle.response_started:
            self.transport.close()  # the app is answering already: nothing more can be said
        else:
            self._refuse(408)

    def _refuse(self, status: int) -> None:
        self.transport.write(STATUS_LINE[status] + b"connection: close\r\ncontent-length: 0\r\n\r\n")
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A client that connects and sends nothing is cut off like one that sends its head slowly.
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel("_head_timer")
        self._cancel("_request_timer")
        super().connection_lost(exc)

    # -- parsing: uvicorn's data_received, with the answers of _Refused instead of its generic 400 --------------

    def data_received(self, data: bytes) -> None:
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError as error:
            refused = error.__context__
            if isinstance(refused, _Refused):
                self._refuse(refused.status)
            else:
                msg = "Invalid HTTP request received."
                self.logger.warning(msg)
                self.send_400_response(msg)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = 0
        self._has_host = False
        self._unmet_expectation = False
        self._arm()

    def _count(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > MAX_HEADER_BYTES:
            raise _Refused(431)

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        # ": " and CRLF count, as node:http counts them.
        self._count(len(name) + len(value) + 4)
        lower = name.lower()
        if lower == b"host":
            self._has_host = True
        elif lower == b"expect" and value.strip().lower() != b"100-continue":
            self._unmet_expectation = True
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._cancel("_head_timer")
        if self.parser.get_http_version() == "1.1" and not self._has_host:
            raise _Refused(400)
        if self._unmet_expectation:
            raise _Refused(417)  # RFC 9110 §10.1.1, and node:http's answer
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._cancel("_request_timer")
        super().on_message_complete()
