"""Turns pytest's JUnit XML into the JSON shape of vitest's json reporter, the one .ci/run adds up
(numPassedTests, numFailedTests, numPendingTests, numTodoTests, and testResults[].assertionResults[]).

Usage: junit-to-vitest-json.py JUNIT_XML OUT_JSON. A missing or unreadable JUnit file (pytest crashed before
writing it) becomes one failed file with no tests, which the CI summary counts as a failure.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

# The directory pytest ran in, relative to the repository (apps/fastapi or packages/python): test files are named by it.
SUITE = Path.cwd().resolve().relative_to(Path(__file__).resolve().parents[3]).as_posix()


def convert(junit: Path) -> dict:
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as error:
        crashed = {"name": f"{SUITE} (pytest)", "status": "failed", "message": str(error), "assertionResults": []}
        return {
            "numTotalTests": 0,
            "numPassedTests": 0,
            "numFailedTests": 0,
            "numPendingTests": 0,
            "numTodoTests": 0,
            "success": False,
            "testResults": [crashed],
        }
    files: dict[str, list[dict]] = defaultdict(list)
    for case in root.iter("testcase"):
        classname = case.get("classname") or case.get("name", "")
        module = (
            classname.rsplit(".", 1)[0] if "." in classname and "Test" in classname.rsplit(".", 1)[-1] else classname
        )
        if case.find("failure") is not None or case.find("error") is not None:
            status = "failed"
        elif case.find("skipped") is not None:
            status = "pending"
        else:
            status = "passed"
        files[f"{SUITE}/{module.replace('.', '/')}.py"].append(
            {"ancestorTitles": [f"{Path(SUITE).name} (pytest)"], "title": case.get("name", ""), "status": status}
        )
    counts = {
        s: sum(1 for tests in files.values() for t in tests if t["status"] == s)
        for s in ("passed", "failed", "pending")
    }
    return {
        "numTotalTests": sum(counts.values()),
        "numPassedTests": counts["passed"],
        "numFailedTests": counts["failed"],
        "numPendingTests": counts["pending"],
        "numTodoTests": 0,
        "success": counts["failed"] == 0 and counts["passed"] > 0,
        "testResults": [
            {
                "name": name,
                "status": "failed" if any(t["status"] == "failed" for t in tests) else "passed",
                "assertionResults": tests,
            }
            for name, tests in sorted(files.items())
        ],
    }


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    summary = convert(Path(sys.argv[1]))
    Path(sys.argv[2]).parent.mkdir(parents=True, exist_ok=True)
    Path(sys.argv[2]).write_text(json.dumps(summary, indent=2) + "\n")
    print(
        f"pytest: {summary['numPassedTests']} passed, {summary['numFailedTests']} failed, "
        f"{summary['numPendingTests']} skipped → {sys.argv[2]}"
    )


if __name__ == "__main__":
    main()
