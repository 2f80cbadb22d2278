"""Lecture details the page shows without being asked (issue: teach the details)."""
from __future__ import annotations

import requests


def test_the_horizon_tree_opens_with_its_lectures_depth_limit(page, viz, live_server):
    info = requests.get(f"{live_server}/api/trees/tictactoe-horizon", timeout=10).json()
    assert info["depth"] == 2
    viz.open(page, "tictactoe-horizon")
    assert page.locator("input[name=depth]").input_value() == "2"
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-step]').dataset.total")
    # Beyond the horizon nothing is searched: depth-3 nodes stay unvisited.
    deep = page.locator("[data-node='X1-O3-X5']")
    assert deep.count() == 0 or deep.get_attribute("data-status") == "unvisited"
    # E(n) two plies deep prefers the corner X9: the win by X1 lies beyond the horizon.
    assert "the best move is X in the bottom-right corner" in page.locator("#narration").inner_text()

    # Clearing the limit is kept in the address, so the link reopens without it.
    page.fill("input[name=depth]", "")
    page.dispatch_event("input[name=depth]", "change")
    page.wait_for_function("() => new URLSearchParams(location.search).get('depth') === 'none'")
    viz.open(page, "tictactoe-horizon", "depth=none")
    assert page.locator("input[name=depth]").input_value() == ""


def test_iterative_deepening_table_jumps_to_any_iteration(page, viz, live_server):
    events = requests.get(f"{live_server}/api/trees/tictactoe-horizon/trace",
                          params={"algorithm": "iterative", "depth": 3}, timeout=10).json()["events"]
    ends = {e["depth"]: e for e in events if e["type"] == "iteration" and "value" in e}
    assert sorted(ends) == [1, 2, 3]
    # The best move in words, as the narration says it (issue 20), never as a board's string.
    labels = requests.get(f"{live_server}/api/trees/tictactoe-horizon", timeout=10).json()["moves"]
    viz.open(page, "tictactoe-horizon", "algorithm=iterative&depth=3")
    table = page.locator("#iterations")
    assert table.is_visible()
    assert page.locator("#iterations tbody tr").count() == 3
    # Nothing known yet: the results appear as the run reaches them.
    assert page.locator("#iterations tbody tr").nth(1).locator("td").nth(2).inner_text() == "—"
    page.click("[data-iteration='2']")
    viz.wait_step(page, ends[2]["step"])
    row = page.locator("#iterations tbody tr").nth(1)
    assert row.locator("td").nth(2).inner_text() == str(ends[2]["value"]).replace("-", "−")
    assert row.locator("td").nth(1).inner_text() == labels[ends[2]["best_move"]]
    assert "current" in (row.get_attribute("class") or "")
    # Back to the first iteration, then on to the last.
    page.click("[data-iteration='1']")
    viz.wait_step(page, ends[1]["step"])
    page.click("[data-iteration='3']")
    viz.wait_step(page, ends[3]["step"])
    last = page.locator("#iterations tbody tr").nth(2).locator("td").nth(1).inner_text()
    assert last == labels[ends[3]["best_move"]]
    # The horizon effect in the table: two plies prefer X9, three find the win at X1.
    assert (ends[2]["best_move"], ends[3]["best_move"]) == ("X9", "X1")
    assert (labels["X9"], labels["X1"]) == ("X in the bottom-right corner", "X in the top-left corner")


def test_panels_draw_game_positions_as_the_tree_does(page, viz, live_server):
    """The call stack and the pruning test name a game's positions by their
    small boards (boards.js), with the position in words for screen readers
    and on hover; a tree of plain labels keeps its text."""
    info = requests.get(f"{live_server}/api/trees/tictactoe-horizon", timeout=10).json()
    words = info["positions"]
    events = requests.get(f"{live_server}/api/trees/tictactoe-horizon/trace",
                          params={"depth": 2}, timeout=10).json()["events"]
    step = next(e["step"] for e in events if e["type"] == "prune")
    viz.open(page, "tictactoe-horizon", f"step={step}")
    cells = page.evaluate("""() => [...document.querySelectorAll('#stack tbody tr td:first-child')].map(td => ({
        boards: td.querySelectorAll('svg .pic-tictactoe').length,
        hidden: td.querySelector('svg')?.getAttribute('aria-hidden'),
        said: td.querySelector('.sr')?.textContent, title: td.querySelector('.pic-name')?.title,
        width: td.querySelector('svg')?.getBoundingClientRect().width,
        shown: [...td.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('')}))""")
    # The open frames, root first: the labels of the active node's ancestors.
    labels = page.evaluate("""() => { const out = [];
        for (let n = window.visualizer.tree.byId.get(window.visualizer.session.active); n; n = n.parent) out.unshift(n.label);
        return out; }""")
    assert len(cells) == len(labels) >= 2
    for cell, label in zip(cells, labels):
        assert cell["boards"] == 1 and cell["hidden"] == "true" and cell["shown"] == ""
        assert cell["said"] == words[label] == cell["title"]
        assert cell["width"] >= 30                      # cells of 10 px and more: readable
    # The cut-off's sentence: the node and the skipped positions as boards, in words for a screen reader.
    test = page.locator("#prune-test")
    assert test.locator("svg .pic-tictactoe").count() >= 2
    said = test.inner_text()
    prune = events[step - 1]
    for node_id in [prune["node"], *prune["skipped"]]:
        label = page.evaluate("id => window.visualizer.tree.byId.get(id).label", node_id)
        assert words[label] in said and label not in said

    # Plain labels stay text.
    viz.open(page, "aima-fig-5-2", "step=14")
    assert page.locator("#stack tbody td:first-child").all_inner_texts() == ["A", "C"]
    assert page.locator("#stack svg, #prune-test svg").count() == 0
    assert "At C (MIN)" in page.locator("#prune-test").inner_text()
