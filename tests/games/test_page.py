"""A game from its rules in the real browser: /t/game:... draws the top of the
tree with folded subtrees, runs the whole search, and opens a fold on a click."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def stats(page) -> dict:
    done = page.evaluate("() => window.visualizer.session.run.done")
    return done["stats"]


def test_whole_tictactoe_with_alphabeta_in_the_page(page, live_server):
    page.goto(f"{live_server}/t/game:tictactoe?algorithm=alphabeta")
    page.wait_for_selector("#visualizer.ready")
    assert page.locator("[data-fold]").count() == 72           # the 72 replies, folded
    assert page.locator('[data-fold="X1-O2"] title').text_content().startswith("8,232 nodes")
    # It opens where the action is: a readable window that follows the search
    # (not the whole tree as a sliver), the folds' counts legible, the position
    # where the search is drawn large beside the tree.
    assert page.evaluate("() => window.visualizer.following")
    assert page.evaluate("() => window.visualizer.zoom.get().k") >= 1
    count = page.evaluate("""() => { const e = document.querySelector('[data-fold] .fold-count');
      return parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a; }""")
    assert count >= 11
    board = page.locator("[data-active-board]")
    assert board.is_visible() and "the empty board" in board.inner_text()
    assert board.bounding_box()["width"] >= 100
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-step]').textContent === '4'")
    assert "X in the top-left corner" in board.inner_text()
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-step]').getAttribute('data-total')",
                           timeout=120_000)
    s = stats(page)
    assert (s["entered"], s["evaluated"], s["cutoffs"]) == (18_297, 7_330, 4_237)
    assert s["minimax_evaluated"] == 255_168
    assert page.locator("#stats").inner_text().replace(",", "").count("18297") == 1
    # At the end, the best line: move by move beside the tree, and on screen where it is drawn.
    page.wait_for_function("() => document.querySelector('[data-active-board]').textContent.includes('best line')")
    assert board.inner_text().startswith("The best line: X in the top-left corner, O in the centre")
    pv = page.evaluate("""() => { const st = document.querySelector('#canvas').getBoundingClientRect();
      return [...document.querySelectorAll('#tree .node.pv')].filter((g) => {
        const r = g.querySelector('.shape').getBoundingClientRect();
        return r.left >= st.left && r.right <= st.right && r.top >= st.top && r.bottom <= st.bottom; }).length; }""")
    assert pv >= 2
    # A reply cut off at the root's level is drawn pruned, its fold too.
    assert page.locator('[data-node="X9-O8"]').get_attribute("data-status") == "pruned"
    assert page.locator('[data-node="X1-O2"]').get_attribute("data-status") == "visited"
    # Opening a fold draws its children with the run's state.
    page.locator('[data-fold="X1-O2"]').dispatch_event("click")
    page.wait_for_selector('[data-node="X1-O2-X3"]')
    assert page.locator('[data-node="X1-O2-X3"]').get_attribute("data-status") == "visited"
    assert page.locator("[data-fold]").count() == 71 + 7


def test_connect4_opens_at_its_depth_limit_and_a_bad_game_is_refused(page, live_server):
    page.goto(f"{live_server}/t/game:connect4")
    page.wait_for_selector("#visualizer.ready")
    assert page.locator("[data-node=start]").count() == 1
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-step]').getAttribute('data-total')",
                           timeout=60_000)
    done = page.evaluate("() => window.visualizer.session.run.done")
    assert done["best_move"] == "X4" and done["stats"]["minimax_evaluated"] == 7 ** 4
    # In words, never as a board's string: the sentence names the column.
    text = page.locator("#narration").inner_text()
    assert "the best move is X in column 4" in text and "·" not in text
    # The accessible tree and the call stack name positions in words too.
    items = page.evaluate("""() => [...document.querySelectorAll('#a11y-tree [role=treeitem]')]
      .map((e) => (e.getAttribute('aria-label') || '') + ' ' + e.textContent).join(' | ')""")
    assert "X in column 4" in items and "·" not in items
    # Iterative deepening's table: each iteration's best move in words.
    page.goto(f"{live_server}/t/game:connect4?algorithm=iterative&depth=2")
    page.wait_for_selector("#visualizer.ready")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('[data-step]').getAttribute('data-total')",
                           timeout=60_000)
    rows = page.locator("#iterations tbody tr")
    assert rows.count() == 2
    for i in range(2):
        assert rows.nth(i).locator("td").nth(1).inner_text() == "X in column 4"
    page.goto(f"{live_server}/t/game:chess")
    assert "unknown game" in page.locator("[role=alert]").first.inner_text()
