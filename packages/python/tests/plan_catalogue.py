"""The plans tests' catalogue, for Python: packages/data-access/test/plans/catalogue.json, shared with the Node test
(packages/data-access/test/plans.test.ts), its lists multiplied out as catalogue.ts does: each dimension's values
with each other's and with every way of paging."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CATALOGUE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "data-access" / "test" / "plans" / "catalogue.json").read_text()
)
LOOKUPS: list[str] = CATALOGUE["lookups"]


@dataclass(frozen=True)
class ListCase:
    route: str
    caller: str
    # The query string as the catalogue writes it, {names} and {cursor} unfilled.
    query: str

    @property
    def name(self) -> str:
        query = f"?{self.query}" if self.query else ""
        return f"{self.route}{query}{', as the customer' if self.caller == 'customer' else ''}"


def _combinations(dimensions: list[list[str]]) -> Iterator[str]:
    for values in itertools.product(*dimensions):
        yield "&".join(value for value in values if value)


LIST_CASES = [
    ListCase(entry["route"], entry["caller"], query)
    for entry in CATALOGUE["lists"]
    for query in _combinations([*entry["dimensions"], CATALOGUE["paging"]])
]


@dataclass(frozen=True)
class TieCase(ListCase):
    """A list whose page starts after a cursor amid a run of rows sharing its key ({tied}: the catalogue's ties)."""

    # The statement that finds the run's row to start after: its id and its sort keys as the contract writes them.
    middle: str = ""


TIE_CASES = [
    TieCase(entry["route"], entry["caller"], query, entry["middle"])
    for entry in CATALOGUE["ties"]["lists"]
    for query in _combinations([*entry["dimensions"], ["cursor={tied}"]])
]


def named(text: str, values: dict[str, str]) -> str:
    """`text` with each {name} replaced by its value."""
    return re.sub(r"\{(\w+)\}", lambda match: values.get(match[1], match[0]), text)
