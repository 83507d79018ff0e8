"""The verdict on one executed plan, verdict.ts's in Python (packages/data-access/test/plans.test.ts writes the rule
out: no Seq Scan of a growing table, no scan of one that reads more than the catalogue's rowsBound rows, no Sort of
more than rowsBound rows read from one), and the catalogue's allowances, which excuse what the contract documents as
growing with the data."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from plan_catalogue import CATALOGUE

ROWS_BOUND: int = CATALOGUE["rowsBound"]
ALLOWANCES: list[dict[str, Any]] = CATALOGUE["allowances"]
# The tables that grow with the data; idempotency_keys is read by key only.
GROWING_TABLES = {"users", "products", "orders"}


def explained_in(message: str) -> dict[str, Any] | None:
    """The statement auto_explain put in a notice's message (`duration: … ms  plan:\\n{…}`), or none."""
    start = message.find("{")
    if not message.startswith("duration:") or start < 0:
        return None
    return json.loads(message[start:])


def statement_role(statement: dict[str, Any]) -> str:
    """`count` for a list's total, else `rows`."""
    return "count" if re.match(r"\s*SELECT\s+COUNT\(\*\)", statement["Query Text"], re.IGNORECASE) else "rows"


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _rows_out(node: dict[str, Any]) -> float:
    return node.get("Actual Rows", 0) * node.get("Actual Loops", 1)


def _rows_read(node: dict[str, Any]) -> float:
    """Rows a scan took from its table: those it returned and those its filter or recheck threw away, every loop."""
    kept = node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
    return (kept + node.get("Rows Removed by Index Recheck", 0)) * node.get("Actual Loops", 1)


def _reads_growing_table(node: dict[str, Any]) -> bool:
    return any(n.get("Relation Name") in GROWING_TABLES for n in _nodes(node))


def violations_of(plan: dict[str, Any], bound: int) -> list[tuple[str, str]]:
    """Everything wrong with one plan, whatever the allowances say: (kind, what) pairs."""
    found: list[tuple[str, str]] = []
    for node in _nodes(plan):
        table, kind = node.get("Relation Name"), node["Node Type"]
        if table in GROWING_TABLES:
            index = f" using {node['Index Name']}" if "Index Name" in node else ""
            if kind == "Seq Scan":
                found.append(("seq-scan", f"Seq Scan on {table} ({_rows_read(node):,.0f} rows)"))
            elif _rows_read(node) > bound:
                found.append(("rows-read", f"{kind}{index} on {table} reads {_rows_read(node):,.0f} rows"))
        sorted_rows = sum(_rows_out(child) for child in node.get("Plans", []))
        if kind == "Sort" and sorted_rows > bound and _reads_growing_table(node):
            found.append(("sort", f"Sort by {', '.join(node.get('Sort Key', []))} of {sorted_rows:,.0f} rows"))
    return found


def judge(params: set[str], statement: dict[str, Any]) -> tuple[list[str], list[int]]:
    """What remains of a statement's violations once the allowances for its case's query parameters waived theirs,
    and the allowances (by position) that waived any."""
    role = statement_role(statement)
    allowances = [i for i, a in enumerate(ALLOWANCES) if a["param"] in params and a["statement"] == role]
    violations = violations_of(statement["Plan"], ROWS_BOUND)
    waived = {kind for i in allowances for kind in ALLOWANCES[i]["waives"]}
    failures = [what for kind, what in violations if kind not in waived]
    used = [i for i in allowances if any(kind in ALLOWANCES[i]["waives"] for kind, _ in violations)]
    return failures, used


def outline(node: dict[str, Any], depth: int = 0) -> str:
    """A plan as an indented outline, one node a line with the rows it read: what a failure shows."""
    using = f" using {node['Index Name']}" if "Index Name" in node else ""
    on = f" on {node['Relation Name']}" if "Relation Name" in node else ""
    removed = f", removed {node['Rows Removed by Filter']}" if node.get("Rows Removed by Filter") else ""
    line = (
        f"{'  ' * depth}{node['Node Type']}{using}{on} "
        f"(rows {node.get('Actual Rows')}{removed}, loops {node.get('Actual Loops')})"
    )
    return "\n".join([line, *(outline(child, depth + 1) for child in node.get("Plans", []))])
