"""[mcts] Guided practice of Monte Carlo tree search: "which child does UCB1
select next?", one question per selection, with the numbers it needs."""
from __future__ import annotations

from app.cli.common import load
from app.practice import answer_key, guide
from app.practice.checker import practice_options
from app.search import SearchOptions


def test_guided_ucb_questions():
    tree = load("aima-fig-5-2")
    opts = practice_options(tree, "guided", SearchOptions(algorithm="mcts"))
    assert (opts.algorithm, opts.iterations, opts.seed) == ("mcts", 30, 1)
    key = answer_key(tree, opts)
    first = guide(key, 0)
    q = first["question"]
    assert q["kind"] == "ucb" and q["node"] == "A" and q["choices"] == ["B", "C", "D"]
    assert q["prompt"].startswith("UCB1 at A (MAX to move; N = 3, C = 1.414; the means are for "
                                  "MAX, scaled over the values 2 to 14): B: n = 1, mean 3; "
                                  "C: n = 1, mean 6; D: n = 1, mean 2.")
    # the tree shown has the numbers of that moment, the answer not yet taken
    assert first["view"]["C"]["visits"] == 1 and first["view"]["C"]["mean"] == 6
    assert first["view"]["A"]["status"] != "unvisited"
    wrong = guide(key, 0, "B")
    assert wrong["result"]["correct"] is False and "UCB1" in wrong["result"]["rule"]
    assert "answer" not in wrong
    right = guide(key, 0, "C")
    assert right["result"]["correct"] is True and right["answer"] == "C"
    assert right["worked"].startswith("B: 0.083 + 1.482 = 1.566; C: 0.333 + 1.482 = 1.816")
    # every question is a selection among two or more children, answered by the run
    events = {e["step"]: e for e in key.events}
    for i in range(first["total"]):
        g = guide(key, i, reveal=True)
        ev = events[g["reveal_step"]]
        assert ev["type"] == "select" and g["answer"] == tree.node(ev["node"]).label
        assert len(g["question"]["choices"]) >= 2


def test_guided_mcts_over_http(client):
    body = {"tree": "aima-fig-5-2", "mode": "guided", "algorithm": "mcts", "iterations": 12,
            "seed": 1, "index": 0, "answer": "C"}
    got = client.post("/api/practice/check", json=body)
    assert got.status_code == 200, got.get_json()
    data = got.get_json()
    assert data["result"]["correct"] is True
    assert "algorithm=mcts" in data["link"] and "iterations=12" in data["link"]
    bad = client.post("/api/practice/check", json={**body, "iterations": 0})
    assert bad.status_code == 400
