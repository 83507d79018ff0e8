"""The Pydantic models accept and refuse exactly what the contract's Zod schemas do.

tests/validation-corpus.json holds requests parts (bodies, queries, path params, headers); scripts/export-contract.ts
runs each through the Zod schema of the same name and records the outcome (build/validation-vectors.json). Each
case must come out the same here: the same parsed value, or the same `errors[].path` list, in the same order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from api_contract import models
from api_contract.problems import ProblemError
from api_contract.types import well_formed
from api_contract.validation import validate
from api_core.http import js_int, js_number

VECTORS = Path(__file__).resolve().parent.parent / "build" / "validation-vectors.json"
NO_VALUE = object()


def _load() -> list[dict[str, Any]]:
    # Numbers as the app's JSON parser gives them (what Zod sees in JavaScript), e.g. 5.0 → 5.
    return json.loads(VECTORS.read_text("utf-8"), parse_float=js_number, parse_int=js_int)


def _case_id(case: dict[str, Any]) -> str:
    shown = json.dumps(case.get("input", "(absent)"), ensure_ascii=True)
    return f"{case['schema']}:{shown[:60]}"


def _output(model: BaseModel) -> Any:
    """What Zod's parse returns, as JSON: unset optional fields absent, defaults present, RootModel unwrapped."""
    if isinstance(model, models.RootModel):
        return model.root
    data = model.model_dump(by_alias=True)
    return {k: v for k, v in data.items() if v is not None or k in model.model_fields_set}


def _stored(value: Any) -> Any:
    """Zod's output as PostgreSQL stores it: node-postgres writes a lone surrogate as U+FFFD, which this app's
    models do at validation (the one place the two outputs may differ)."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, dict):
        return {k: _stored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stored(v) for v in value]
    return value


CASES = _load() if VECTORS.exists() else []


def test_the_corpus_was_exported() -> None:
    assert len(CASES) > 200, "run scripts/export-contract.ts (conftest does when Node 24 is on PATH)"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_same_outcome_as_zod(case: dict[str, Any]) -> None:
    model: type[BaseModel] = getattr(models, case["schema"])
    value = case.get("input")
    try:
        parsed = validate(model, value, case["part"])
    except ProblemError as problem:
        assert not case["ok"], f"refused here, accepted by Zod as {case.get('output')}: {problem.errors}"
        assert problem.status == 400 and problem.kind == "validation"
        assert [e["path"] for e in problem.errors or []] == case["paths"]
    else:
        assert case["ok"], f"accepted here, refused by Zod with {case['paths']}"
        assert _output(parsed) == _stored(case["output"])
