"""Principal variation search through the command line and the HTTP trace
(contract §2, §3): the core's events, `scout` and `research` among them."""
from __future__ import annotations

import json
from pathlib import Path

from app.cli import main
from app.search import SearchOptions, run
from app.treefile import load_path

FIG52 = Path(__file__).resolve().parents[2] / "trees" / "aima-fig-5-2.yaml"


def core(**kw):
    return list(run(load_path(FIG52), SearchOptions(algorithm="pvs", **kw)))


def test_command_line_and_http_give_the_core_events(client, capsys):
    assert main(["trace", str(FIG52), "--algorithm", "pvs", "--order", "worst",
                 "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == core(order="worst")
    assert lines[-1]["stats"]["researches"] == 1 and {"scout", "research"} <= {
        e["type"] for e in lines}
    got = client.get("/api/trees/fig52/trace?algorithm=pvs&order=worst")
    assert got.status_code == 200 and got.get_json()["events"] == core(order="worst")
    assert main(["trace", str(FIG52), "--algorithm", "pvs", "--depth", "x"]) == 2
