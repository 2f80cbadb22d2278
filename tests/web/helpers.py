"""Small helpers of the web tests."""
from __future__ import annotations

import json


def strict_json(text: str | bytes):
    """Parse as a browser would: ``NaN`` / ``Infinity`` are errors."""
    def refuse(name):
        raise ValueError(f"not strict JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def done_of(events: list[dict]) -> dict:
    """The final ``done`` event, checking that it is the last and only one."""
    assert [e["type"] for e in events].count("done") == 1
    assert events[-1]["type"] == "done"
    return events[-1]


FIG52_SUMMARY = dict(value=3, best_move="B",
                     evaluated=["b1", "b2", "b3", "c1", "d1", "d2", "d3"],
                     pruned=["c2", "c3"])
"""The contract's summary of alpha-beta on AIMA Fig. 5.2 (contract §2)."""


def assert_fig52_done(done: dict) -> None:
    for key, expected in FIG52_SUMMARY.items():
        assert done[key] == expected, key


def watch_builds(app, monkeypatch) -> list[int]:
    """Every tree the app's library builds from now on, as the number of heavy jobs
    running when it was built: 1 inside an admitted job (app.web.offload), 0 on the
    loop every visitor shares."""
    library, work = app.extensions["trees"], app.extensions["work"]
    running: list[int] = []
    build = library._build

    def watched(tree_id):
        running.append(work.running)
        return build(tree_id)

    monkeypatch.setattr(library, "_build", watched)
    return running
