"""A keyboard-only user: the skip link, Space and Enter on controls, and the
accessible tree walked node by node (static/js/painters/a11ytree.js)."""
from __future__ import annotations

import pytest

from tests.browser.expect import trace

pytestmark = pytest.mark.browser

FOCUSED_NAME = "() => document.activeElement.getAttribute('aria-label')"


def tab_to(page, predicate: str, limit: int = 40) -> int:
    """Press Tab until ``predicate`` (JS, on document.activeElement) holds; the presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!({predicate}); }}"):
            return presses
    raise AssertionError(f"Tab never reached {predicate}")


def test_skip_link_reaches_the_step_controls(page, viz, fig52):
    viz.open(page, fig52)
    assert tab_to(page, "e.matches('.skip-link')") == 1
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.action") == "to-start"
    # the skip link shows when focused (not only to screen readers)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")


def test_space_and_enter_press_the_focused_button(page, viz, fig52):
    viz.open(page, fig52)
    panels = page.locator("[data-action=toggle-panels]")
    panels.focus()
    page.keyboard.press("Space")
    assert panels.get_attribute("aria-pressed") == "false"     # the button, not play
    page.wait_for_timeout(400)
    assert viz.step(page) == 0
    page.keyboard.press("Enter")
    assert panels.get_attribute("aria-pressed") == "true"
    # arrows still step with focus on a button (a button has no use for them)
    page.keyboard.press("ArrowRight")
    viz.wait_step(page, 1)
    # a select keeps its arrow keys, and keeps focus after a change
    algorithm = page.locator("select[name=order]")
    algorithm.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.activeElement.name") == "order"


def test_walk_the_tree_to_a_pruned_leaf_and_hear_why(page, viz, live_server, fig52, shoot):
    events = trace(live_server, fig52, algorithm="alphabeta")
    cut = next(e for e in events if e["type"] == "prune" and e["node"] == "C")
    viz.open(page, fig52)
    page.keyboard.press("End")
    viz.wait_step(page, events[-1]["step"])
    # the narration is spoken once, in the polite live region
    page.wait_for_function("t => document.querySelector('#announce').textContent === t",
                           arg=events[-1]["text"])
    tab_to(page, "e.getAttribute('role') === 'treeitem'")
    assert page.evaluate(FOCUSED_NAME).startswith("MAX node A, value 3, α = 3, β = +∞, visited, on the best line")
    page.keyboard.press("ArrowRight")                      # A's first child
    assert page.evaluate(FOCUSED_NAME).startswith("MIN node B, value 3")
    page.keyboard.press("ArrowLeft")                       # open: close it
    page.keyboard.press("ArrowDown")                       # next sibling
    assert page.evaluate(FOCUSED_NAME).startswith("MIN node C, value 2, α = 3, β = +∞, visited")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    name = page.evaluate(FOCUSED_NAME)
    assert name == f"leaf c2, value 4, pruned. Why: {cut['text']}"
    # the node in focus is ringed in the drawing
    assert page.locator("#tree [data-node=c2]").get_attribute("class").split().count("kbd-focus") == 1
    shoot(page, "a11y-tree-focus-c2")
    page.keyboard.press("ArrowLeft")                       # a leaf: up to its parent
    assert page.evaluate(FOCUSED_NAME).startswith("MIN node C")
    page.keyboard.press("Home")
    assert page.evaluate(FOCUSED_NAME).startswith("MAX node A")
    # one tab stop: Tab leaves the tree
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.getAttribute('role')") != "treeitem"


def test_tree_follows_the_steps(page, viz, fig52):
    viz.open(page, fig52, "step=0")
    item = page.locator("#a11y-tree [data-a11y-node=b1]")
    assert item.get_attribute("aria-label") == "leaf b1, value 3, not visited yet."
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    viz.wait_step(page, 3)
    assert item.get_attribute("aria-label") == "leaf b1, value 3, evaluated."
    # the hooks live on the drawing only: one element per data-node
    assert page.locator("[data-node=b1]").count() == 1


def test_playing_does_not_flood_the_reader(page, viz, fig52):
    viz.open(page, fig52)
    page.locator("[data-role=speed]").fill("8")
    texts = []
    page.expose_function("heard", lambda t: texts.append(t))
    page.evaluate("""() => new MutationObserver(() => {
        const t = document.querySelector('#announce').textContent; if (t) window.heard(t); })
        .observe(document.querySelector('#announce'), {childList: true, characterData: true, subtree: true})""")
    page.wait_for_timeout(600)        # step 0's sentence, spoken once on opening
    texts.clear()
    page.click("[data-action=play]")
    page.wait_for_function("() => +document.querySelector('[data-step]').textContent >= 20", timeout=15000)
    page.click("[data-action=pause]")
    page.wait_for_timeout(800)
    assert texts[0] == "Playing. Press Space to pause."
    assert len(texts) == 2, texts                          # "playing", then the step it paused at
    assert texts[1] == page.locator("#narration").inner_text()


def test_a_games_fold_opens_from_the_keyboard(page, viz):
    viz.open(page, "game:tictactoe")
    page.locator("#a11y-tree [role=treeitem]").first.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    name = page.evaluate(FOCUSED_NAME)
    assert "folded:" in name and "Enter opens them" in name, name
    before = page.locator("#a11y-tree [role=treeitem]").count()
    page.keyboard.press("Enter")
    page.wait_for_function("n => document.querySelectorAll('#a11y-tree [role=treeitem]').length > n",
                           arg=before)
    assert "folded" not in page.evaluate(FOCUSED_NAME)      # focus stays on the opened node
    assert page.evaluate("() => document.activeElement.getAttribute('aria-expanded')") == "true"


def test_hooks_mode_carries_the_contract_hooks(page, viz, fig52):
    """With ``hooks: true`` (a canvas drawing that cannot carry them) the
    items carry data-node, data-status, data-value, data-alpha, data-beta,
    following the same steps; an item is made for every node reached."""
    viz.open(page, fig52, "step=0")
    result = page.evaluate("""async () => {
        const { makeA11yTree } = await import('/static/js/painters/a11ytree.js');
        const { read } = await import('/static/js/core/model.js');
        const { session, tree } = window.visualizer;
        const list = document.createElement('ul');
        document.body.appendChild(list);
        const a11y = makeA11yTree(list, tree, { hooks: true, openUpTo: 0,
            fields: (id) => read(session.run.view, id) });
        const before = list.querySelectorAll('[data-node]').length;
        await session.goTo(session.run.total ?? 1000);
        a11y.setNodes(tree.nodes.map((n) => n.id), (id) => read(session.run.view, id));
        const hooks = (id) => { const e = list.querySelector(`[data-node="${id}"]`);
            return e && [e.dataset.status, e.dataset.value, e.dataset.alpha, e.dataset.beta]; };
        return { before, c2: hooks('c2'), C: hooks('C'), d3: hooks('d3'),
                 a11yOnly: list.querySelectorAll('[data-a11y-node]').length };
    }""")
    assert result["before"] == 4                      # root open: A and its children
    assert result["c2"] == ["pruned", "", "", ""]
    assert result["C"] == ["visited", "2", "3", "inf"]
    assert result["d3"][0] == "evaluated" and result["d3"][1] == "2"
    assert result["a11yOnly"] == 0
