"""`python -m app trace` as a user runs it (contract §2), in a subprocess."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

AIMA = """\
title: AIMA Fig. 5.2
root:
  id: A
  children:
    - {id: B, children: [{id: b1, value: 3}, {id: b2, value: 12}, {id: b3, value: 8}]}
    - {id: C, eval: 1, children: [{id: c1, value: 2}, {id: c2, value: 4}, {id: c3, value: 6}]}
    - {id: D, children: [{id: d1, value: 14}, {id: d2, value: 5}, {id: d3, value: 2}]}
"""

CHANCE = """\
title: chance
root:
  id: A
  children:
    - {id: B, player: MIN, children: [3, 5]}
    - id: C
      type: chance
      children:
        - {id: c1, probability: 0.25, player: MIN, children: [8, 10]}
        - {id: c2, probability: 0.75, value: 2}
"""

THREE = """\
title: three players
players: [A, B, C]
root:
  children:
    - children: [{value: [1, 2, 6]}, {value: [4, 2, 3]}]
    - children: [{value: [6, 1, 2]}, {value: [7, 4, 1]}]
"""


def trace(tmp_path, text, *args, name="tree.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "app", "trace", str(path), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def jsonl(result):
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_aima_summary_is_the_contracts(tmp_path):
    events = jsonl(trace(tmp_path, AIMA, "--algorithm", "alphabeta", "--format", "jsonl"))
    done = events[-1]
    assert {k: done[k] for k in ("type", "value", "best_move", "evaluated", "pruned")} == {
        "type": "done", "value": 3, "best_move": "B",
        "evaluated": ["b1", "b2", "b3", "c1", "d1", "d2", "d3"], "pruned": ["c2", "c3"]}
    assert all("type" in e for e in events)
    assert [e["step"] for e in events] == list(range(1, len(events) + 1))


def test_output_is_strict_json_with_infinities_as_strings(tmp_path):
    result = trace(tmp_path, AIMA, "--format", "jsonl")
    assert "Infinity" not in result.stdout and "NaN" not in result.stdout
    first = json.loads(result.stdout.splitlines()[0])
    assert first["alpha"] == "-inf" and first["beta"] == "inf"


@pytest.mark.parametrize("order", ["given", "best", "worst", "random"])
def test_every_order_gives_the_same_value_and_move(tmp_path, order):
    done = jsonl(trace(tmp_path, AIMA, "--order", order, "--seed", "7", "--format", "jsonl"))[-1]
    assert done["value"] == 3 and done["best_move"] == "B"


def test_best_order_searches_the_mover_s_best_child_first(tmp_path):
    events = jsonl(trace(tmp_path, AIMA, "--order", "best", "--format", "jsonl"))
    leaves = [e["node"] for e in events if e["type"] == "evaluate"]
    assert leaves[:3] == ["b1", "b3", "b2"]  # MIN at B: 3, 8, 12


def test_random_order_is_reproducible_by_seed(tmp_path):
    a = trace(tmp_path, AIMA, "--order", "random", "--seed", "4217", "--format", "jsonl").stdout
    b = trace(tmp_path, AIMA, "--order", "random", "--seed", "4217", "--format", "jsonl").stdout
    assert a == b


def test_depth_limit_uses_eval_and_reports_it_as_evaluated(tmp_path):
    text = AIMA.replace("{id: B,", "{id: B, eval: 5,").replace("{id: D,", "{id: D, eval: 0,")
    done = jsonl(trace(tmp_path, text, "--depth", "1", "--algorithm", "minimax", "--format", "jsonl"))[-1]
    assert done["evaluated"] == ["B", "C", "D"] and done["value"] == 5 and done["best_move"] == "B"


def test_strict_does_not_prune_on_equality(tmp_path):
    text = AIMA.replace("{id: c1, value: 2}", "{id: c1, value: 3}")
    loose = jsonl(trace(tmp_path, text, "--format", "jsonl"))[-1]
    strict = jsonl(trace(tmp_path, text, "--strict", "--format", "jsonl"))[-1]
    assert loose["pruned"] == ["c2", "c3"]
    assert strict["pruned"] == [] and "c2" in strict["evaluated"]


def test_expectiminimax_and_maxn(tmp_path):
    done = jsonl(trace(tmp_path, CHANCE, "--algorithm", "expectiminimax", "--format", "jsonl"))[-1]
    assert done["value"] == 3.5 and done["best_move"] == "C" and done["pruned"] == []
    done = jsonl(trace(tmp_path, THREE, "--algorithm", "maxn", "--format", "jsonl"))[-1]
    # B keeps (1, 2, 6) on a tie (2 = 2), then (7, 4, 1) (4 > 1); A takes 7 > 1.
    assert done["value"] == [7, 4, 1] and done["pruned"] == []


def test_iterative_deepening_reports_each_iteration(tmp_path):
    text = AIMA.replace("{id: B,", "{id: B, eval: 5,").replace("{id: D,", "{id: D, eval: 0,")
    events = jsonl(trace(tmp_path, text, "--algorithm", "iterative", "--format", "jsonl"))
    assert events[-1]["iterations"] == [{"depth": 1, "value": 5, "best_move": "B"},
                                        {"depth": 2, "value": 3, "best_move": "B"}]


def test_text_format_is_one_line_per_step_indented_by_depth(tmp_path):
    result = trace(tmp_path, AIMA, "--format", "text")
    lines = result.stdout.splitlines()
    # 30 steps and the summary: b2, b3, C and D each get a step although v stays.
    assert result.returncode == 0 and len(lines) == 31
    assert "prune" in lines[15] and "c2, c3" in lines[15]
    assert "12 from b2 does not lower v: v stays 3" in lines[6]
    assert lines[2].index("evaluate") > lines[1].index("enter") > lines[0].index("enter")


@pytest.mark.parametrize("args,text,message", [
    (["--algorithm", "maxn"], AIMA, "one value per player"),
    (["--depth", "1"], AIMA, "no eval"),
    (["--algorithm", "alphabeta"], THREE, "3 players"),
    (["--algorithm", "minimax"], CHANCE, "chance"),
    (["--order", "sideways"], AIMA, "invalid choice"),
    (["--depth", "two"], AIMA, "invalid int"),
    ([], "title: x\nroot: {children: [1, 2], value: 3}\n", "line"),
    ([], "title: [unclosed\n", "line"),
])
def test_bad_input_exits_2_with_one_line_and_no_traceback(tmp_path, args, text, message):
    result = trace(tmp_path, text, *args, "--format", "jsonl")
    assert result.returncode == 2
    assert result.stdout == ""
    err = result.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert message in err


def test_missing_file(tmp_path):
    result = subprocess.run([sys.executable, "-m", "app", "trace", str(tmp_path / "nope.yaml")],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and "no such file" in result.stderr
