"""Monte Carlo tree search through the command line, the HTTP trace and the
Socket.IO stream: the same events as the core, bad arguments refused."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.common import load
from app.search import SearchOptions, run

ROOT = Path(__file__).resolve().parents[2]


def core(tree_id="aima-fig-5-2", **kw):
    return list(run(load(tree_id), SearchOptions(algorithm="mcts", **kw)))


@pytest.mark.slow
def test_command_line():
    out = subprocess.run([sys.executable, "-m", "app", "trace", "trees/aima-fig-5-2.yaml",
                          "--algorithm", "mcts", "--iterations", "40", "--seed", "3",
                          "--format", "jsonl"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == core(iterations=40, seed=3)
    done = lines[-1]
    assert done["type"] == "done" and done["stats"]["iterations"] == 40
    assert done["visits"]["A"] == 40 and done["best_move"] in ("B", "C", "D")
    bad = subprocess.run([sys.executable, "-m", "app", "trace", "trees/aima-fig-5-2.yaml",
                          "--algorithm", "mcts", "--iterations", "0"], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "iterations" in bad.stderr and not bad.stdout
    game = subprocess.run([sys.executable, "-m", "app", "trace", "game:connect4", "--algorithm",
                           "mcts", "--iterations", "20", "--seed", "1", "--format", "jsonl",
                           "--exploration", "1"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.splitlines()
    assert json.loads(game[-1])["visits"]["start"] == 20


def test_http_trace(client):
    got = client.get("/api/trees/fig52/trace?algorithm=mcts&iterations=25&seed=4"
                     "&exploration=1.5")
    assert got.status_code == 200
    body = got.get_json()
    assert body["events"] == core(iterations=25, seed=4, exploration=1.5)
    assert body["options"]["iterations"] == 25
    game = client.get("/api/trees/game:tictactoe/trace?algorithm=mcts&iterations=30&seed=1"
                      "&depth=3").get_json()["events"]
    assert game[-1]["visits"]["start"] == 30
    for query, arg in (("iterations=0", "iterations"), ("iterations=x", "iterations"),
                       ("exploration=-1", "exploration"), ("exploration=nan", "exploration")):
        bad = client.get(f"/api/trees/fig52/trace?algorithm=mcts&{query}")
        assert bad.status_code == 400, query
        assert arg in bad.get_json()["error"]["message"]
    wrong = client.get("/api/trees/fig52/trace?algorithm=minimax&iterations=5")
    assert wrong.status_code == 400
    big = client.get("/api/trees/fig52/trace?algorithm=mcts&iterations=5000000")
    assert big.status_code == 413 and "error" in big.get_json()


def test_socket_stream_pulls_json_events(socket_client):
    ack = socket_client.emit("start", {"tree": "fig52", "algorithm": "mcts",
                                       "iterations": 30, "seed": 2}, callback=True)
    assert ack["ok"], ack
    events = []
    done = False
    while not done:
        pulled = socket_client.emit("pull", {"run": ack["run"], "count": 40, "encoding": "json"},
                                    callback=True)
        assert pulled["ok"], pulled
        events += json.loads(pulled["events_json"])
        done = pulled["done"]
    assert events == core(iterations=30, seed=2)
    # A run's first pull fixes its encoding: compact records after JSON events are refused.
    refused = socket_client.emit("pull", {"run": ack["run"], "count": 5,
                                          "encoding": "compact"}, callback=True)
    assert not refused["ok"] and refused["error"]["argument"] == "encoding"
    over = socket_client.emit("start", {"tree": "fig52", "algorithm": "mcts",
                                        "iterations": 10**6}, callback=True)
    assert not over["ok"]


def test_socket_stream_pulls_compact_records(socket_client):
    """Issue 30 point 4: the page pulls MCTS as compact records (app.search.compact_mcts),
    in pulls of at most ``count``, the last one ``[8, null]``, and narrates them
    itself (tests/browser/test_narrate_parity.py holds the events equal)."""
    from app.search.compact import records
    ack = socket_client.emit("start", {"tree": "fig52", "algorithm": "mcts",
                                       "iterations": 30, "seed": 2}, callback=True)
    assert ack["ok"], ack
    got, done = [], False
    while not done:
        pulled = socket_client.emit("pull", {"run": ack["run"], "count": 40,
                                             "encoding": "compact"}, callback=True)
        assert pulled["ok"], pulled
        batch = json.loads(pulled["records_json"])
        assert 0 < len(batch) <= 40
        got += batch
        done = pulled["done"]
    want = [json.loads(text) for text, _ in
            records(load("aima-fig-5-2"), SearchOptions(algorithm="mcts", iterations=30, seed=2))]
    assert got == want and got[0][0] == 9 and got[-1] == [8, None]
    assert got[0][1]["mcts"] == {"iterations": 30, "exploration": 2 ** 0.5, "range": [2, 14],
                                 "words": False}
    # A selection is the child's index, a back-propagation nothing: 30 of them.
    assert sum(r == [13] for r in got) == 30
    # ln N comes with a node's first selection at N visits (as math.log has it: the
    # browser's Math.log is 1 ulp off for some N), then never again.
    events = core(iterations=30, seed=2)
    selects = [r for r in got if r[0] == 10]
    n_of = [e["parent_visits"] for e in events if e["type"] == "select"]
    assert len(selects) == len(n_of) > 10
    seen = set()
    for r, n in zip(selects, n_of):
        assert r[2:] == ([] if n in seen else [math.log(n)])
        seen.add(n)


def test_picture_of_a_step_shows_visits_and_means(client):
    got = client.get("/api/trees/fig52/export.dot?algorithm=mcts&iterations=25&seed=4&step=end")
    assert got.status_code == 200
    dot = got.get_data(as_text=True)
    done = core(iterations=25, seed=4)[-1]
    assert "Monte Carlo tree search, 25 iterations, seed 4" in dot
    assert "N = 25" in dot and f"x̄ = {done['means']['A']}" in dot
    for child in ("B", "C", "D"):
        assert f"N = {done['visits'][child]}" in dot


def test_no_worksheet_for_mcts(client):
    got = client.get("/api/trees/fig52/worksheet.pdf?algorithm=mcts&iterations=10")
    assert got.status_code == 400
    assert got.get_json()["error"]["argument"] == "algorithm"
