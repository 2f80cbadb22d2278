"""An edit drawn from the page's own search (static/js/core/localsearch.js) before
the server answers, and the server's word after it, in the real browser:
the answer brings the sentence; a refusal undoes the edit (and any made on
it); a result that differs is drawn again as the server has it.

The server's answers are held, refused or changed on their way (the page
forced to HTTP, ``data-transport``, so that Playwright can route them; and
nothing asked ahead while a value is typed, ``data-ahead``)."""
from __future__ import annotations

import json

import pytest

from .test_browser import Editor

pytestmark = pytest.mark.browser

AIMA = "aima-fig-5-2"
CUT_D = "Changing d1 to 1 cuts d2 and d3 at D (alpha = 3); static evaluations 7 → 5 (2 saved)."


def open_over_http(page) -> Editor:
    ed = Editor(page).open(f"/edit/{AIMA}", yaml=False)
    # (Nothing asked while a value is typed: the run follows Enter, as bench/editor.py's cold edits.)
    page.evaluate("() => Object.assign(document.querySelector('#editor').dataset, "
                  "{ transport: 'http', ahead: 'off' })")
    return ed


def key_of(body: dict, node_id: str) -> str:
    stack = [body["tree"]["root"]]
    while stack:
        node = stack.pop()
        if node.get("id") == node_id:
            return node["key"]
        stack.extend(node.get("children", []))
    raise KeyError(node_id)


def status(page, node_id: str) -> str:
    return page.get_attribute(f"[data-node='{node_id}']", "data-status")


def type_value(page, text: str) -> None:
    page.fill("[data-edit=value]", text)
    page.press("[data-edit=value]", "Enter")


def wait_revision(page, above: int) -> None:
    page.wait_for_function("r => Number(document.querySelector('#editor').dataset.revision) > r",
                           arg=above)


def test_an_edit_is_drawn_before_the_server_answers(page):
    ed = open_over_http(page)
    held = []
    page.route("**/api/edit/run", lambda route: held.append(route))
    ed.select("d1")
    revision, sentence = ed.revision, ed.sentence
    type_value(page, "1")
    wait_revision(page, revision)
    # Drawn: the new cuts, the marks, the counts, while the server has not answered.
    assert status(page, "d2") == status(page, "d3") == "pruned"
    assert ed.marked("new-cut") == ["d2", "d3"]
    assert page.inner_text("[data-result=evaluated]").startswith("5 ")
    assert page.get_attribute("#editor", "data-run-via") == "local"
    assert page.get_attribute("#editor", "aria-busy") == "true"
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(20)
    assert len(held) == 1 and ed.sentence == sentence      # the sentence is the server's to say
    held[0].continue_()
    ed.settle()
    assert ed.sentence == CUT_D
    assert "d1=1" in ed.notation
    assert page.get_attribute("#editor", "data-run-via") == "http"
    # The server agreed: nothing drawn again.
    assert ed.revision == revision + 1
    assert page.get_attribute("#editor", "data-local-disagreements") is None


def test_an_edit_the_server_refuses_is_undone_with_the_edits_made_on_it(page):
    ed = open_over_http(page)
    held = []
    page.route("**/api/edit/run", lambda route: held.append(route))
    notation, revision = ed.notation, ed.revision
    ed.select("d1")
    type_value(page, "1")
    wait_revision(page, revision)
    ed.select("b2")
    type_value(page, "9")                     # made on the first, drawn too
    wait_revision(page, revision + 1)
    assert page.get_attribute("[data-node='b2']", "data-value") == "9"
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(20)
    page.wait_for_timeout(100)
    assert len(held) == 1                      # the second waits for the word on the first
    body = held[0].request.post_data_json
    held[0].fulfill(status=400, content_type="application/json",
                    body=json.dumps({"error": {"message": "Not this one.", "key": key_of(body, "d1")}}))
    ed.settle()
    callout = page.locator("#node-error")
    assert callout.is_visible() and callout.get_attribute("data-error-node") == "d1"
    assert "Not this one." in callout.inner_text()
    # Both edits are gone: the tree, its run and the history are as before.
    assert ed.notation == notation
    assert page.get_attribute("[data-node='d1']", "data-value") == "14"
    assert page.get_attribute("[data-node='b2']", "data-value") == "12"
    assert page.get_attribute("[data-node='d2']", "data-value") == "5"
    assert status(page, "d2") == "evaluated"
    assert page.is_disabled("[data-action=undo]")
    assert len(held) == 1                      # the second edit never reached the server
    page.unroute("**/api/edit/run")
    ed.select("d2")
    ed.field("value", "7")                     # and the page goes on
    assert "d2=7" in ed.notation and callout.is_hidden()


def test_where_the_server_differs_the_page_takes_the_servers(page):
    ed = open_over_http(page)

    def skewed(route):
        response = route.fetch()
        answer = response.json()
        answer["result"]["value"] = 99
        answer["result"]["nodes"]["A"][1] = 99
        route.fulfill(response=response, json=answer)
    page.route("**/api/edit/run", skewed)
    ed.select("c2")
    revision = ed.revision
    ed.field("value", "1")
    assert page.get_attribute("[data-node='A']", "data-value") == "99"
    assert page.inner_text("[data-result=value]") == "99"
    assert page.get_attribute("#editor", "data-local-disagreements") == "1"
    assert ed.revision == revision + 2           # drawn by the page, then again as the server says
    assert ed.sentence == "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."


def test_an_undo_and_an_option_are_drawn_ahead_and_a_refused_undo_stays_undoable(page):
    ed = open_over_http(page)
    ed.select("d1")
    ed.field("value", "1")
    assert ed.sentence == CUT_D
    ahead = int(page.get_attribute("#editor", "data-drawn-ahead"))
    # A change of algorithm is drawn by the page too: minimax cuts nothing.
    page.select_option("#options [name=algorithm]", "minimax")
    ed.settle()
    assert int(page.get_attribute("#editor", "data-drawn-ahead")) == ahead + 1
    assert status(page, "d2") == "evaluated" and page.inner_text("[data-result=cutoffs]") == "0"
    # An undo the server refuses (here, told to) is put back: the edit stays, undo stays possible.
    page.route("**/api/edit/run", lambda route: route.fulfill(
        status=429, content_type="application/json",
        body=json.dumps({"error": {"message": "Too many runs, try again."}})))
    page.click("#stage", position={"x": 5, "y": 5})
    revision = ed.revision
    page.keyboard.press("Control+z")
    wait_revision(page, revision)                    # drawn ahead ...
    ed.settle()                                      # ... and undone again on the refusal
    assert "d1=1" in ed.notation and not page.is_disabled("[data-action=undo]")
    assert page.is_disabled("[data-action=redo]")
    assert "Too many runs, try again." in page.inner_text("#node-error")
    page.unroute("**/api/edit/run")
    ed.key("Control+z")
    assert "d1=14" in ed.notation and page.is_disabled("[data-action=undo]")
    assert page.get_attribute("#editor", "data-local-disagreements") is None
