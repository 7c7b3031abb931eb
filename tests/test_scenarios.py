"""Every scenario file under tests/scenarios replays to exactly what its `expect` says.

`expect` holds any subset of the `lupus replay --json` keys; each given key must match.
These files are the rule tests: one (or more) per rule of the seeds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lupus import scenario as sc

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) > 0


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path: Path) -> None:
    scenario = sc.read(path)
    assert scenario.expect, f"{path.name} has no expect block"
    result = sc.summary(sc.replay(scenario))
    for key, wanted in scenario.expect.items():
        if key == "error_message_contains":
            error = result["error"]
            assert isinstance(error, dict), f"{path.name}: expected an error, got none"
            assert wanted in error["message"], error["message"]
            continue
        assert key in result, f"{path.name}: unknown expect key {key!r}"
        assert result[key] == wanted, (
            f"{path.name}: {key} is {json.dumps(result[key])}, expected {json.dumps(wanted)}"
        )
