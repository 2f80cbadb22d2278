"""The accessible tree (static/js/painters/a11ytree.js) on every page with a tree,
walked by keyboard in the real browser: practice (the student's answer and
the check), the class's student and projector pages (the step's state, and
bounds kept unsaid while a question asks for them), the editor (value, eval,
the search's result, a refused edit), and a game's positions said in words.
Then each page read the way a screen reader reads it (Playwright's ARIA
snapshot), in English and in Bahasa Indonesia."""
from __future__ import annotations

import re

import pytest
import requests

from tests.a11y.test_keyboard import FOCUSED_NAME, tab_to
from tests.browser.expect import trace

pytestmark = pytest.mark.browser
FIG52 = "aima-fig-5-2"
IS_ITEM = "e.getAttribute('role') === 'treeitem'"


def item(pg, node: str):
    return pg.locator(f"#a11y-tree [data-a11y-node='{node}']")


def wait_name(pg, node: str, text: str):
    """Wait until node's item says ``text`` (the page rewrites it a moment later)."""
    try:
        pg.wait_for_function(
            "([n, t]) => document.querySelector(`#a11y-tree [data-a11y-node='${n}']`)"
            "?.getAttribute('aria-label') === t", arg=[node, text], timeout=10000)
    except Exception:
        said = pg.locator(f"#a11y-tree [data-a11y-node='{node}']").get_attribute("aria-label")
        raise AssertionError(f"{node} says {said!r}, not {text!r}") from None


def test_practice_tree_says_the_answer_and_the_check(page, shoot):
    page.goto(f"/practice/{FIG52}?mode=cuts")
    page.wait_for_selector("#practice.ready")
    tab_to(page, IS_ITEM)
    assert page.evaluate(FOCUSED_NAME) == "MAX node A, no value written yet, not checked yet."
    page.keyboard.press("ArrowRight")                        # A is open: its first child
    assert page.evaluate(FOCUSED_NAME) == "MIN node B, no value written yet, not checked yet."
    page.keyboard.press("Enter")                             # Enter: write B's answer
    assert page.evaluate("document.activeElement.dataset.for") == "B"
    page.keyboard.type("3")
    wait_name(page, "B", "MIN node B, your value 3, not checked yet.")
    item(page, "B").focus()                                  # back in the tree, where it was
    page.keyboard.press("ArrowLeft")                         # close B
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")                        # C is open: c1
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED_NAME) == "leaf c2, value 4."
    # The ring in the drawing follows the item in focus.
    assert "kbd-focus" in page.locator("#tree [data-node=c2]").get_attribute("class")
    page.locator("line.hit[data-cut=c2]").focus()            # the branch's cut button
    page.keyboard.press("Enter")
    wait_name(page, "c2", "leaf c2, you marked this branch pruned, value 4, not checked yet.")
    page.locator("[data-action=check]").focus()
    page.keyboard.press("Enter")
    # Cuts mode scores the cuts; a value gets the checker's word as a hint.
    wait_name(page, "B", "MIN node B, your value 3, right (a hint, not scored).")
    assert item(page, "c2").get_attribute("aria-label") == \
        "leaf c2, you marked this branch pruned, value 4, checked: this cut is right."
    assert item(page, "c3").get_attribute("aria-label") == \
        "leaf c3, value 6, checked: this branch is pruned, and not marked."
    assert item(page, "C").get_attribute("aria-label") == \
        "MIN node C, no value written yet, checked: a mistake here."
    shoot(page, "a11y-practice-checked")


def _class(live_server, step):
    res = requests.post(f"{live_server}/api/classes",
                        json={"tree": FIG52, "algorithm": "alphabeta", "step": step}, timeout=10)
    assert res.status_code == 201, res.text
    return res.json()


def test_class_pages_say_the_step_and_keep_asked_bounds_unsaid(browser, live_server):
    events = trace(live_server, FIG52, algorithm="alphabeta")
    k = next(e["step"] for e in events if e["type"] == "enter" and e["node"] == "C") + 1
    cls = _class(live_server, k)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=live_server)
    try:
        inst, student = ctx.new_page(), ctx.new_page()
        inst.goto(f"/c/{cls['code']}/present#{cls['instructor']}")
        inst.wait_for_selector("#class-present.ready", timeout=15000)
        inst.keyboard.press("Enter")            # "Start": the join view gives way to the tree
        student.goto(f"/c/{cls['code']}")
        student.wait_for_selector("#class-student.ready", timeout=15000)
        at_c = events[k - 1]
        c_now = student.evaluate(
            "() => document.querySelector(\"#a11y-tree [data-a11y-node='C']\").getAttribute('aria-label')")
        assert c_now.startswith("MIN node C, ") and "α = 3, β = +∞" in c_now, (c_now, at_c)
        # The student walks to C by keyboard.
        tab_to(student, IS_ITEM)
        assert student.evaluate(FOCUSED_NAME).startswith("MAX node A, value 3, α = 3, β = +∞, visited")
        student.keyboard.press("ArrowRight")
        student.keyboard.press("ArrowLeft")
        student.keyboard.press("ArrowDown")
        assert student.evaluate(FOCUSED_NAME) == c_now
        # A question about C's bounds: neither page says them until the reveal.
        inst.select_option("[data-ask=kind]", "bounds")
        inst.select_option("[data-ask=node]", "C")
        inst.click("[data-action=ask]")
        hidden = c_now.replace("α = 3, β = +∞", "α and β hidden: the question asks for them")
        for pg in (inst, student):
            wait_name(pg, "C", hidden)
        inst.click("[data-action=reveal]")
        wait_name(student, "C", c_now)
        # The projector steps on; the student's tree follows with the step's state.
        inst.click("[data-action=dismiss]")
        inst.locator("[data-action=step-forward]").click()
        nxt = events[k]
        student.wait_for_function(
            "k => document.querySelector('[data-step]').textContent === String(k)",
            arg=k + 1, timeout=15000)
        active = nxt["node"]
        student.wait_for_function(
            "n => document.querySelector(`#a11y-tree [data-a11y-node='${n}']`)"
            "?.getAttribute('aria-label').includes('active: the search is here')", arg=active)
    finally:
        ctx.close()


def test_editor_tree_selects_edits_and_says_a_refusal(page, shoot):
    page.goto(f"/edit/{FIG52}")
    page.wait_for_function(
        "() => document.querySelector('#editor').getAttribute('aria-busy') === 'false'")
    wait_name(page, "A", "MAX node A, backed-up value 3, α = 3, β = +∞, visited, on the best line.")
    tab_to(page, IS_ITEM, limit=60)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")                        # B: focus selects it
    assert page.evaluate(FOCUSED_NAME) == ("MIN node B, backed-up value 3, α = −∞, β = 3, "
                                           "visited, on the best line, the best move.")
    assert page.get_attribute("#tree [data-node=B]", "aria-selected") == "true"
    assert item(page, "B").get_attribute("aria-selected") == "true"
    page.keyboard.press("ArrowRight")                        # b1
    assert page.get_attribute("#tree [data-node=b1]", "aria-selected") == "true"
    page.keyboard.press("Enter")                             # Enter edits its value
    assert page.evaluate("document.activeElement.dataset.edit") == "value"
    page.keyboard.press("Control+A")
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    wait_name(page, "b1", "leaf b1, value 20, evaluated.")
    # A refused edit is said at its node.
    page.fill("[data-edit=value]", "x")
    page.press("[data-edit=value]", "Enter")
    page.wait_for_selector("#node-error:not([hidden])")
    refusal = page.inner_text("#node-error")
    said = item(page, "b1").get_attribute("aria-label")
    assert said.endswith(f" Refused: {refusal}"), said
    shoot(page, "a11y-editor-refused")


def test_a_games_positions_are_said_in_words(page, live_server):
    res = requests.get(f"{live_server}/api/trees/game:tictactoe:x...o....?lang=id", timeout=10)
    positions = res.json()["positions"]
    assert positions["X··/·O·/···"] == "X di pojok kiri atas, O di tengah"
    en = requests.get(f"{live_server}/api/trees/game:tictactoe:x...o....", timeout=10).json()
    assert en["positions"]["X··/·O·/···"] == "X in the top-left corner, O in the centre"
    # A crowded board is named mark by mark, not as a row of dots.
    crowded = next(label for label in en["positions"] if label.count("X") + label.count("O") >= 4)
    assert "·" not in en["positions"][crowded]
    assert "positions" not in requests.get(f"{live_server}/api/trees/{FIG52}", timeout=10).json()
    page.goto("/t/game:tictactoe:x...o....")
    page.wait_for_selector("#visualizer.ready", timeout=15000)
    page.keyboard.press("ArrowRight")                        # two steps: a call stack of two
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#stack tbody tr:nth-child(2)")
    stack = page.locator("#stack tbody").aria_snapshot()
    assert 'row "X in the top-left corner, O in the centre MAX' in stack, stack
    assert "·" not in stack, stack                           # the board is read in words
    shown = page.locator("#stack tbody tr td .pic-name").first   # and shown as drawn (a small board)
    assert shown.get_attribute("title") == "X in the top-left corner, O in the centre"
    tab_to(page, IS_ITEM, limit=60)
    assert page.evaluate(FOCUSED_NAME) == ("MAX node, X in the top-left corner, O in the centre, "
                                           "value −∞, α = −∞, β = +∞, visited.")
    page.keyboard.press("ArrowRight")
    first = page.evaluate(FOCUSED_NAME)
    assert first.startswith("MIN node, X in the top-left corner") and "·" not in first


# -- a screen reader's reading, in both languages -----------------------------

def _pages(live_server):
    cls = _class(live_server, 6)
    return [
        ("visualizer", f"/t/{FIG52}?step=14", "#visualizer.ready"),
        ("practice", f"/practice/{FIG52}?mode=full", "#practice.ready"),
        ("class-student", cls["join"], "#class-student.ready"),
        ("class-present", f"{cls['join']}/present#{cls['instructor']}", "#class-present.ready"),
        ("editor", f"/edit/{FIG52}", "#editor[aria-busy=false]"),
        ("game", "/t/game:nim:7", "#visualizer.ready"),
    ]


# Words a reading in Indonesian must not contain inside the tree (English left over).
ENGLISH = re.compile(r"\b(node|leaf|value|visited|pruned|evaluated|written|checked|search|"
                     r"best line|not visited|piles?|board)\b")


@pytest.mark.parametrize("lang", ["en", "id"])
def test_every_tree_page_reads_node_by_node(browser, live_server, lang, shoot):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=live_server)
    ctx.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    pg = ctx.new_page()
    try:
        for name, path, ready in _pages(live_server):
            pg.goto(path)
            pg.wait_for_selector(ready, timeout=15000)
            pg.wait_for_timeout(300)
            tree = pg.locator("#a11y-tree")
            snap = tree.aria_snapshot()
            lines = [line.strip() for line in snap.splitlines()]
            assert re.match(r"""- '?tree "[^"]+""", lines[0]), (name, snap[:200])
            # Each item's accessible name (the snapshot is YAML: a line may be quoted).
            items = [m.group(1).replace("''", "'") for line in lines
                     for m in [re.search(r'treeitem "(.*)"', line)] if m]
            assert len(items) >= 8, (name, snap[:400])
            # Each node is said whole: its kind, its name, a full stop.
            kinds = ("MAX node", "MIN node", "leaf") if lang == "en" else \
                ("simpul MAX", "simpul MIN", "daun")
            for said in items:
                assert said.startswith(kinds), (name, said)
                assert said.endswith(".") or ". " in said, (name, said)
            if lang == "id":
                leftover = [said for said in items if ENGLISH.search(said)]
                assert not leftover, (name, leftover[:3])
            # The drawing is not read twice: outside the tree the page does not
            # spell out the nodes' labels one by one.
            body = pg.locator("body").aria_snapshot()
            assert "b1 12 b2" not in body and "3 b1" not in body, name
            shoot(pg, f"a11y-reading-{name}-{lang}")
    finally:
        ctx.close()
