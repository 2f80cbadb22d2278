"""The library page in a real browser: the gallery, and opening a tree by
file, by drag and drop, and by pasted text; bad files are explained."""
from __future__ import annotations

import re

import pytest
import requests

pytestmark = pytest.mark.browser

GOOD = """\
title: A small test tree
source: the browser tests
root:
  id: A
  children:
    - id: B
      children: [5, 1]
    - id: C
      children: [7, 4]
"""

# Line 5 holds an unknown key: a tree file error with a line and a column.
BAD = """\
title: A broken tree
root:
  id: A
  children:
    - {id: B, valeu: 3}
"""


def test_gallery_lists_every_tree_with_a_preview(page, live_server, fig52, shoot):
    listing = requests.get(f"{live_server}/api/trees", timeout=10).json()
    page.goto(f"{live_server}/")
    cards = page.locator("a.card")
    cards.first.wait_for()
    assert cards.count() == len(listing)
    card = page.locator(f"a.card[data-tree='{fig52}']")
    assert card.get_attribute("href") == f"/t/{fig52}"
    assert "13 nodes" in card.inner_text() and "alpha-beta" in card.inner_text()
    # The preview is drawn from the tree: 13 shapes, 12 edges, the leaf values.
    card.locator(".preview svg path").nth(12).wait_for()
    assert card.locator(".preview svg path").count() == 13
    assert card.locator(".preview svg line").count() == 12
    values = card.locator(".preview svg text").all_text_contents()
    assert values == ["3", "12", "8", "2", "4", "6", "14", "5", "2"]
    shoot(page, "library")
    card.click()
    page.wait_for_url(re.compile(rf"/t/{fig52}$"))
    page.wait_for_selector("#visualizer.ready")


def test_uploading_a_good_file_opens_it(page, live_server, tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text(GOOD)
    page.goto(f"{live_server}/")
    page.set_input_files("input[type=file]", str(path))
    page.wait_for_url(re.compile(r"/t/u-[0-9a-f]+(\?[^#]*)?$"))   # (the page may name the run it opens in the query)
    page.wait_for_selector("#visualizer.ready")
    assert page.locator("#title").inner_text() == "A small test tree"
    assert page.locator("[data-node]").count() == 7


def test_a_bad_file_shows_the_message_with_its_line(page, live_server, tmp_path, shoot):
    path = tmp_path / "broken.yaml"
    path.write_text(BAD)
    page.goto(f"{live_server}/")
    page.set_input_files("input[type=file]", str(path))
    alert = page.locator("[role=alert]")
    alert.wait_for(state="visible")
    expected = requests.post(f"{live_server}/api/trees", data=BAD.encode(),
                             headers={"Content-Type": "application/x-yaml"}, timeout=10).json()
    error = expected["error"]
    assert error["line"] == 5
    text = alert.inner_text()
    assert error["message"] in text and f"line {error['line']}" in text
    if error.get("column") is not None:
        assert f"column {error['column']}" in text
    assert page.url == f"{live_server}/"
    shoot(page, "library-upload-error")
    # The server is still answering.
    assert requests.get(f"{live_server}/api/trees", timeout=10).status_code == 200


def test_pasted_notation_opens_and_bad_text_is_explained(page, live_server):
    page.goto(f"{live_server}/")
    page.fill("#paste", "title: x\nroot:\n  children: [1, 2\n")
    page.click("#open")
    alert = page.locator("[role=alert]")
    alert.wait_for(state="visible")
    assert re.search(r"line \d+", alert.inner_text())
    # The cursor is put on the line the server named (the page adds it last).
    line = int(re.findall(r"\(line (\d+)", alert.inner_text())[-1])
    selected_line = page.evaluate(
        "() => { const t = document.querySelector('#paste');"
        " return t.value.slice(0, t.selectionStart).split('\\n').length; }")
    assert selected_line == line

    page.fill("#paste", "((3 12 8) (2 4 6) (14 5 2))")
    page.click("#open")
    page.wait_for_url(re.compile(r"/t/u-[0-9a-f]+(\?[^#]*)?$"))   # (the page may name the run it opens in the query)
    page.wait_for_selector("#visualizer.ready")
    assert page.locator("[data-node]").count() == 13


def test_a_file_dropped_on_the_drop_zone_opens(page, live_server):
    page.goto(f"{live_server}/")
    page.evaluate("""text => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.yaml', {type: 'application/x-yaml'}));
        document.querySelector('#dropzone').dispatchEvent(
            new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""", GOOD.replace("A small test tree", "A dropped tree"))
    page.wait_for_url(re.compile(r"/t/u-[0-9a-f]+(\?[^#]*)?$"))   # (the page may name the run it opens in the query)
    page.wait_for_selector("#visualizer.ready")
    assert page.locator("#title").inner_text() == "A dropped tree"
