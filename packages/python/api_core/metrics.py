"""Prometheus metrics: `http_requests_total` and `http_request_duration_seconds` by method, route template and
status, as packages/server/src/metrics.ts defines them (same names, labels and buckets; `framework` label too).

With several workers (WEB_CONCURRENCY > 1) every worker is its own process; server.py then sets
PROMETHEUS_MULTIPROC_DIR before any worker starts, and /metrics aggregates the files all workers write
(prometheus_client's multiprocess mode; per-process collectors such as CPU and memory are off in that mode).
"""

from __future__ import annotations

import os

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

UNMATCHED_ROUTE = "unmatched"
BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
LABELS = ("method", "route", "status", "framework")

# prom-client has no `_created` series; neither do these.
disable_created_metrics()


class HttpMetrics:
    content_type = CONTENT_TYPE_PLAIN_0_0_4

    def __init__(self, framework: str) -> None:
        self.framework = framework
        self.registry = CollectorRegistry()
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            multiprocess.MultiProcessCollector(self.registry)
            owner = None  # the values live in the shared files; the collector above reads them all
        else:
            ProcessCollector(registry=self.registry)
            PlatformCollector(registry=self.registry)
            GCCollector(registry=self.registry)
            owner = self.registry
        self.requests = Counter("http_requests_total", "HTTP requests served", LABELS, registry=owner)
        self.duration = Histogram(
            "http_request_duration_seconds", "HTTP request duration in seconds", LABELS, buckets=BUCKETS, registry=owner
        )
        self._children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """Records one finished request."""
        key = (method, route, status)
        children = self._children.get(key)
        if children is None:
            labels = (method, route, str(status), self.framework)
            children = self._children[key] = (self.requests.labels(*labels), self.duration.labels(*labels))
        children[0].inc()
        children[1].observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
