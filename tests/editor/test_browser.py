"""The tree editor in a real browser (contract §6): building, editing,
undoing, dragging, refusing, the text in step, the what-if marks."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import requests

pytestmark = pytest.mark.browser

AIMA = "aima-fig-5-2"


class Editor:
    """Drive /edit through the contract §6 hooks."""

    def __init__(self, page):
        self.page = page

    def open(self, path: str = "/edit", yaml: bool = True):
        """Open the editor; with ``yaml``, unfold the YAML box (its text is
        then kept in step at every edit; folded, it is fetched when opened)."""
        self.page.goto(path)
        self.page.wait_for_selector("#editor[data-revision]", timeout=15000)
        self.settle()
        if yaml:
            self.page.click("details.yaml summary")
            self.page.wait_for_function("() => document.querySelector('[data-yaml]').value")
            self.settle()
            self.page.evaluate("() => window.scrollTo(0, 0)")    # back to the drawing (phones)
        return self

    def settle(self):
        self.page.wait_for_function(
            "() => document.querySelector('#editor').getAttribute('aria-busy') === 'false'",
            timeout=15000)

    @property
    def revision(self) -> int:
        return int(self.page.get_attribute("#editor", "data-revision"))

    def act(self, action: str):
        self.page.click(f"[data-action={action}]")
        self.settle()

    def select(self, node_id: str):
        self.page.mouse.click(*self.center(node_id))   # where a person clicks: the shape
        assert self.page.get_attribute(f"[data-node='{node_id}']", "aria-selected") == "true"

    def field(self, name: str, text: str):
        self.page.fill(f"[data-edit={name}]", text)
        self.page.press(f"[data-edit={name}]", "Enter")
        self.settle()

    def key(self, key: str):
        self.page.keyboard.press(key)
        self.settle()

    @property
    def notation(self) -> str:
        return self.page.input_value("[data-notation]")

    @property
    def yaml(self) -> str:
        return self.page.input_value("[data-yaml]")

    @property
    def sentence(self) -> str:
        return self.page.inner_text("[data-change-sentence]")

    def ids(self) -> list[str]:
        return self.page.eval_on_selector_all("[data-node]", "els => els.map(e => e.dataset.node)")

    def marked(self, what: str) -> list[str]:
        return self.page.eval_on_selector_all(f"[data-change='{what}']",
                                              "els => els.map(e => e.dataset.node)")

    def center(self, node_id: str) -> tuple[float, float]:
        box = self.page.locator(f"[data-node='{node_id}'] .shape").bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.fixture
def ed(page):
    return Editor(page)


def test_build_aima_fig_5_2_from_an_empty_root_by_the_ui_alone(ed, live_server, shoot):
    ed.open("/edit")
    assert ed.ids() == ["A"]
    ed.select("A")
    ed.act("add-child")                  # a first move under A ...
    ed.act("add-child")                  # ... which gets a reply: it becomes B, over b1
    for i, value in enumerate(("3", "12", "8")):
        if i:
            ed.act("add-sibling")
        ed.field("value", value)
    ed.select("B")
    ed.key("s")                          # the keyboard: a sibling of B ...
    ed.key("a")                          # ... and a child of it
    for i, value in enumerate(("2", "4", "6")):
        if i:
            ed.key("s")
        ed.page.keyboard.press("Enter")  # Enter edits the selected leaf's value
        ed.page.keyboard.type(value)
        ed.page.keyboard.press("Enter")
        ed.settle()
        ed.page.click("#stage", position={"x": 5, "y": 5})   # back to the drawing
    ed.select("C")
    ed.act("add-sibling")
    ed.act("add-child")
    for i, value in enumerate(("14", "5", "2")):
        if i:
            ed.act("add-sibling")
        ed.field("value", value)
    assert ed.notation == "((3 12 8) (2 4 6) (14 5 2))"
    assert ed.ids() == ["A", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3", "D", "d1", "d2", "d3"]
    shoot(ed.page, "editor-aima-built")

    ed.page.click("[data-action=save]")
    ed.page.wait_for_url(re.compile(r"/t/u-[0-9a-f]{12}"), timeout=15000)
    new_id = re.search(r"/t/(u-[0-9a-f]{12})", ed.page.url).group(1)
    saved = requests.get(f"{live_server}/api/trees/{new_id}", timeout=10).json()
    library = requests.get(f"{live_server}/api/trees/{AIMA}", timeout=10).json()
    assert saved["root"] == library["root"]
    assert saved.get("players") == library.get("players")

    def trace(tree_id):
        return requests.get(f"{live_server}/api/trees/{tree_id}/trace",
                            params={"algorithm": "alphabeta"}, timeout=10).json()["events"]
    assert trace(new_id) == trace(AIMA)


def test_undo_and_redo_every_kind_of_edit_back_to_the_start(ed):
    ed.open(f"/edit/{AIMA}")
    page = ed.page
    snapshots = [(ed.yaml, ed.notation)]

    def done():
        snapshots.append((ed.yaml, ed.notation))
        assert snapshots[-1] != snapshots[-2], "the edit changed nothing"

    ed.select("c2"); ed.field("value", "1"); done()
    ed.select("B"); ed.field("eval", "5"); done()
    ed.select("C"); ed.field("label", "Cee"); done()
    ed.select("d1"); ed.field("id", "dee1"); done()
    ed.select("b1"); ed.act("add-child"); done()
    ed.act("add-sibling"); done()
    ed.act("delete"); done()
    ed.select("D")
    page.select_option("[data-edit=kind]", "chance"); ed.settle(); done()
    assert page.input_value("[data-edit=probabilities]") == "1/3 1/3 1/3"
    ed.field("probabilities", "1/2 1/4 1/4"); done()
    ed.select("c1"); page.keyboard.press("Alt+ArrowRight"); ed.settle(); done()
    ed.act("best-order"); done()
    ed.field("players", "Max, Min"); done()
    ed.field("title", "Edited Figure 5.2"); done()
    page.fill("[data-notation]", ed.notation.replace("12", "13"))
    page.press("[data-notation]", "Enter"); ed.settle(); done()
    page.fill("[data-yaml]", ed.yaml.replace("title: Edited Figure 5.2", "title: Via YAML"))
    page.click("[data-action=apply-yaml]"); ed.settle(); done()
    assert "Via YAML" in ed.yaml and "13" in ed.notation

    page.click("#stage", position={"x": 5, "y": 5})
    for expected in reversed(snapshots[:-1]):
        ed.key("Control+z")
        assert (ed.yaml, ed.notation) == expected
    assert page.is_disabled("[data-action=undo]")
    for expected in snapshots[1:]:
        ed.key("Control+Shift+Z")
        assert (ed.yaml, ed.notation) == expected
    assert page.is_disabled("[data-action=redo]")
    # Most of these were drawn from the page's own search first: the server agreed every time.
    assert int(page.get_attribute("#editor", "data-drawn-ahead")) >= 30
    assert page.get_attribute("#editor", "data-local-disagreements") is None


def test_drag_reorders_siblings_with_the_mouse(ed):
    ed.open(f"/edit/{AIMA}")
    page = ed.page
    x, y = ed.center("b3")
    left, _ = ed.center("b1")
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x + (left - 30 - x) * i / 10, y + 5)
    page.mouse.up()
    ed.settle()
    assert "B(b3=8 b1=3 b2=12)" in ed.notation
    assert ed.page.get_attribute("[data-node='b3']", "aria-selected") == "true"
    # A press that does not move selects, and does not reorder.
    ed.select("b2")
    assert "B(b3=8 b1=3 b2=12)" in ed.notation


def test_touch_on_a_tablet_selects_and_drags(browser, live_server, shoot):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True,
                                  is_mobile=True, base_url=live_server)
    page = context.new_page()
    try:
        ed = Editor(page).open(f"/edit/{AIMA}")
        page.touchscreen.tap(*ed.center("c1"))
        assert page.get_attribute("[data-node='c1']", "aria-selected") == "true"
        cdp = context.new_cdp_session(page)
        x, y = ed.center("d1")
        right, _ = ed.center("d3")

        def touch(kind, px=None, py=None):
            points = [] if px is None else [{"x": px, "y": py}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        touch("touchStart", x, y)
        for i in range(1, 11):
            touch("touchMove", x + (right + 30 - x) * i / 10, y)
        touch("touchEnd")
        ed.settle()
        assert "D(d2=5 d3=2 d1=14)" in ed.notation
        shoot(page, "editor-tablet-after-touch-drag")
    finally:
        context.close()


def test_an_invalid_edit_is_refused_at_its_node(ed, shoot):
    ed.open(f"/edit/{AIMA}")
    page = ed.page
    before, revision = ed.notation, ed.revision
    # A depth limit over nodes without eval: refused at the first, B.
    page.fill("#options [name=depth]", "1")
    page.press("#options [name=depth]", "Tab")
    ed.settle()
    callout = page.locator("#node-error")
    assert callout.is_visible() and callout.get_attribute("data-error-node") == "B"
    assert "depth limit 1 stops at B" in callout.inner_text()
    assert "refused" in page.get_attribute("[data-node='B']", "class")
    assert page.input_value("#options [name=depth]") == ""
    assert ed.revision == revision and ed.notation == before
    shoot(page, "editor-refused-depth")

    # A chance node's probabilities must sum to 1: refused at the chance node.
    ed.select("D")
    page.select_option("[data-edit=kind]", "chance")
    ed.settle()
    ed.select("d1")
    ed.field("probability", "0.9")
    assert callout.get_attribute("data-error-node") == "D"
    assert "sum to 1.566666667, not 1" in callout.inner_text()
    assert page.input_value("[data-edit=probability]") == "1/3"   # the accepted tree stays
    # A value that is not a number: refused at the leaf.
    ed.select("d2")
    ed.field("value", "five")
    assert callout.get_attribute("data-error-node") == "d2"
    ed.field("value", "7")
    assert callout.is_hidden() and "d2=7" in ed.notation


def test_the_notation_box_round_trips(ed):
    ed.open("/edit")
    page = ed.page
    page.fill("[data-notation]", "((3 12 8) (2 4 6) (14 1 2))")
    page.press("[data-notation]", "Enter")
    ed.settle()
    assert ed.ids() == ["A", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3", "D", "d1", "d2", "d3"]
    assert page.get_attribute("[data-node='d3']", "data-status") == "pruned"
    ed.select("d2")
    ed.field("value", "5")
    assert ed.notation == "((3 12 8) (2 4 6) (14 5 2))"
    assert "children: [14, 5, 2]" in ed.yaml          # the YAML box follows too
    # Bad text is refused beside the box; the drawing stays.
    page.fill("[data-notation]", "((3 12 8) (2 4")
    page.press("[data-notation]", "Enter")
    ed.settle()
    error = page.locator("[data-text-error=notation]")
    assert error.is_visible() and "line 1, column 11" in error.inner_text()
    assert len(ed.ids()) == 13


def test_what_if_marks_on_the_textbook_case(ed, shoot):
    ed.open(f"/edit/{AIMA}")
    page = ed.page
    ed.select("c2"); ed.field("value", "1")
    assert ed.sentence == "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."
    assert ed.marked("new-cut") == ed.marked("lost-cut") == []
    ed.select("d1"); ed.field("value", "1")
    assert ed.sentence == "Changing d1 to 1 cuts d2 and d3 at D (alpha = 3); static evaluations 7 → 5 (2 saved)."
    assert ed.marked("new-cut") == ["d2", "d3"]
    assert page.locator("line.edge.wi-new-cut").count() == 2
    shoot(page, "editor-whatif-new-cuts")
    page.click("#stage", position={"x": 5, "y": 5})    # out of the value box: Ctrl+Z is the tree's
    ed.key("Control+z")
    ed.key("Control+z")
    ed.select("c1"); ed.field("value", "5")
    assert ed.marked("lost-cut") == ["c2", "c3"] and ed.marked("new-best") == ["C"]
    assert "the best move changes from B to C" in ed.sentence
    assert page.inner_text("[data-result=best-move]") == "C"
    shoot(page, "editor-whatif-lost-cuts")
    page.click("#stage", position={"x": 5, "y": 5})
    ed.key("Control+z")
    ed.act("best-order")
    assert ed.sentence == ("Ordering the children best first cuts d2 and d1 at D (alpha = 3); "
                           "static evaluations 7 → 5 (2 saved).")
    assert ed.marked("new-cut") == ["d2", "d1"]
    assert "B(b1=3 b3=8 b2=12)" in ed.notation and "D(d3=2 d2=5 d1=14)" in ed.notation


def test_collapse_and_expand(ed):
    ed.open(f"/edit/{AIMA}")
    ed.select("B")
    ed.key("c")
    assert "b1" not in ed.ids() and "collapsed" in ed.page.get_attribute("[data-node='B']", "class")
    ed.act("collapse")
    assert "b1" in ed.ids()


LAYOUTS = {"phone": (390, 844, True), "laptop": (1366, 768, False), "projector": (1920, 1080, False)}

OVERLAPS = """() => {
  const els = [...document.querySelectorAll(
    '.topbar a, .topbar label, .toolbar button, .change, .edit-panels h2, .edit-panels label,'
    + ' .edit-panels dt, .edit-panels dd, .edit-panels button, .edit-panels a, .edit-panels summary')]
    .filter((e) => e.offsetParent !== null && e.getClientRects().length);
  const bad = [];
  for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i], b = els[j];
    if (a.contains(b) || b.contains(a)) continue;
    const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
    const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (w > 1 && h > 1) bad.push(`${a.textContent.trim().slice(0, 20)} / ${b.textContent.trim().slice(0, 20)}`);
  }
  const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  return { bad, wide };
}"""


@pytest.mark.parametrize("name", LAYOUTS)
def test_layouts_have_no_overlapping_text(browser, live_server, shoot, name):
    width, height, touch = LAYOUTS[name]
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                  is_mobile=touch, base_url=live_server)
    page = context.new_page()
    try:
        ed = Editor(page).open(f"/edit/{AIMA}", yaml=False)
        if touch:
            page.touchscreen.tap(*ed.center("c2"))
        else:
            ed.select("c2")
        ed.field("value", "1")
        found = page.evaluate(OVERLAPS)
        shoot(page, f"editor-{name}")
        for control in ("#options [name=algorithm]", "#options [name=depth]", "[data-action=add-child]",
                        "[data-action=undo]", "[data-action=save]", "[data-notation]"):
            assert page.locator(control).is_visible(), control
        assert found["bad"] == [] and not found["wide"], found
        # The drawing keeps most of the width (all of it on a phone) and a real height.
        box = page.locator("#tree").bounding_box()
        assert box["width"] >= width * (0.9 if touch else 0.55)
        assert box["height"] > 300
    finally:
        context.close()


def test_maxn_players_names_and_vector_values(ed):
    ed.open("/edit")
    page = ed.page
    page.fill("[data-notation]", "((3 12) (2 4))")
    page.press("[data-notation]", "Enter")
    ed.settle()
    ed.field("players", "Ann, Bob, Cy")
    # Three players: every leaf now holds one number per player, and max^n runs.
    assert ed.notation == "(([3 0 0] [12 0 0]) ([2 0 0] [4 0 0]))"
    assert page.input_value("#options [name=algorithm]") == "maxn"
    assert "players: [Ann, Bob, Cy]" in ed.yaml
    ed.select("b2")
    ed.field("value", "[1, 9, 2]")
    # Bob moves at B and takes b2, worth 9 to him.
    assert page.get_attribute("[data-node='B']", "data-value") == "[1,9,2]"
    ed.select("C")
    page.select_option("[data-edit=kind]", "Cy")        # Cy moves at C instead of Bob
    ed.settle()
    assert "player: Cy" in ed.yaml
    ed.select("c1")
    ed.field("value", "5")                              # one number is not a max^n value
    assert page.get_attribute("#node-error", "data-error-node") == "c1"
    assert "one number per player" in page.inner_text("#node-error")
    ed.field("players", "MAX, MIN")                    # back to two players: first numbers
    assert ed.notation == "((3 1) (2 4))"


def test_start_from_a_random_tree_and_from_a_file(ed, tmp_path):
    page = ed.page
    ed.open("/edit")
    page.click("[data-start=random]")
    page.wait_for_url(re.compile(r"/edit/r-"))
    ed.page.wait_for_selector("#editor[data-revision]")
    ed.settle()
    assert len(ed.ids()) > 4 and page.input_value("[data-notation]").startswith("A(")
    tree_file = tmp_path / "mine.yaml"
    tree_file.write_text("title: Mine\nroot:\n  children:\n    - {id: left, value: 1}\n"
                         "    - {id: right, value: 2}\n")
    page.set_input_files("[data-start=file]", str(tree_file))
    page.wait_for_function("() => document.querySelector('[data-edit=title]').value === 'Mine'")
    ed.settle()
    assert ed.ids() == ["A", "left", "right"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: Bad\nroot: {vaule: 3}\n")
    page.set_input_files("[data-start=file]", str(bad))
    page.wait_for_selector("#page-alert:not([hidden])")
    assert "did you mean 'value'" in page.inner_text("#page-alert")
    assert ed.ids() == ["A", "left", "right"]


def test_downloads_and_start_a_class(ed, live_server):
    ed.open(f"/edit/{AIMA}")
    page = ed.page
    ed.select("c2")
    ed.field("value", "1")
    with page.expect_download() as got:
        page.click("[data-download=yaml]")
    text = Path(got.value.path()).read_text(encoding="utf-8")
    assert "children: [2, 1, 6]" in text and got.value.suggested_filename.endswith(".yaml")
    with page.expect_download() as got:
        page.click("[data-download=json]")
    data = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert data["root"]["children"][1]["children"][1] == {"id": "c2", "value": 1}
    page.click("[data-share=class]")
    page.wait_for_url(re.compile(r"/c/[A-Za-z0-9]+/present"), timeout=15000)
    page.wait_for_selector("[data-join-code]", timeout=15000)


class Runs:
    """The what-if runs a page asks, over its Socket.IO connection (``/edit``,
    event ``run``) or over HTTP (``POST /api/edit/run``): ``asked`` (bodies
    sent), ``answered`` (bodies whose answer came back), ``via`` (how each went)."""

    FRAME = re.compile(r"^4(\d)/edit,(\d+)(.*)$", re.S)

    def __init__(self, page):
        self.page, self.asked, self.answered, self.via, self._pending = page, [], [], [], {}
        page.on("request", self._request)
        page.on("requestfinished", self._finished)
        page.on("websocket", lambda ws: (ws.on("framesent", self._sent),
                                         ws.on("framereceived", self._received)))

    def _request(self, request):
        if request.url.endswith("/api/edit/run"):
            self.asked.append(request.post_data_json)
            self.via.append("http")

    def _finished(self, request):
        if request.url.endswith("/api/edit/run"):
            self.answered.append(request.post_data_json)

    def _sent(self, payload):
        m = self.FRAME.match(payload) if isinstance(payload, str) else None
        if m and m.group(1) == "2":
            event, body = json.loads(m.group(3))
            if event == "run":
                self.asked.append(body)
                self.via.append("socket")
                self._pending[m.group(2)] = body

    def _received(self, payload):
        m = self.FRAME.match(payload) if isinstance(payload, str) else None
        if m and m.group(1) == "3" and m.group(2) in self._pending:
            self.answered.append(self._pending.pop(m.group(2)))

    def wait_answered(self, test, timeout: float = 15.0):
        """Wait until a run whose body passes ``test`` has its answer."""
        for _ in range(int(timeout / 0.02)):
            if any(test(b) for b in self.answered):
                return
            self.page.wait_for_timeout(20)
        raise AssertionError("no such run answered")


def test_a_value_being_typed_is_asked_ahead_and_enter_draws_it_at_once(ed):
    runs = Runs(ed.page)                       # before the page opens its WebSocket
    ed.open(f"/edit/{AIMA}", yaml=False)
    page = ed.page

    def c2_of(body):
        return body["tree"]["root"]["children"][1]["children"][1]["value"]

    ed.select("c2")
    page.fill("[data-edit=value]", "")
    page.type("[data-edit=value]", "1")        # the what-if run is asked while typing
    runs.wait_answered(lambda b: c2_of(b) == 1)
    asked = len(runs.asked)
    revision = ed.revision
    page.press("[data-edit=value]", "Enter")
    ed.settle()
    assert ed.revision == revision + 1 and len(runs.asked) == asked   # nothing more asked
    assert ed.sentence == "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."
    # Typing something else after that asks again, for the new tree only.
    page.fill("[data-edit=value]", "")
    page.type("[data-edit=value]", "9")
    runs.wait_answered(lambda b: c2_of(b) == 9)
    page.press("[data-edit=value]", "Enter")
    ed.settle()
    assert "c2=9" in ed.notation and ed.sentence.startswith("Changing c2 to 9")
    assert "socket" in runs.via          # the page's open WebSocket carried the runs


def test_a_drag_shows_where_the_node_will_land(ed, shoot):
    ed.open(f"/edit/{AIMA}", yaml=False)
    page = ed.page
    x, y = ed.center("c3")
    left, _ = ed.center("c1")
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 8):
        page.mouse.move(x + (left - 20 - x) * i / 7, y)
    bar = page.locator("line.drop-bar")
    assert bar.count() == 1
    bar_x = bar.bounding_box()["x"]
    assert bar_x < left                       # before c1: c3 goes first
    shoot(page, "editor-dragging")
    page.mouse.up()
    ed.settle()
    assert page.locator("line.drop-bar").count() == 0
    assert "C(c3=6 c1=2 c2=4)" in ed.notation


def test_runs_go_over_the_socket_and_over_http_when_it_cannot(ed):
    """The page's runs take its WebSocket; HTTP (the same answer) when the
    socket cannot carry one: here forced, as bench/editor.py does."""
    runs = Runs(ed.page)
    ed.open(f"/edit/{AIMA}", yaml=False)
    page = ed.page
    page.wait_for_function("() => performance.getEntriesByType('resource')"
                           ".some((r) => r.name.includes('/socket.io/'))")
    page.wait_for_timeout(300)                 # connected
    ed.select("c2")
    ed.field("value", "1")
    assert page.get_attribute("#editor", "data-run-via") == "socket" and runs.via[-1] == "socket"
    assert ed.sentence == "Changing c2 to 1 adds no cut: C is already cut by alpha = 3."
    page.evaluate("() => { document.querySelector('#editor').dataset.transport = 'http'; }")
    ed.field("value", "9")
    assert page.get_attribute("#editor", "data-run-via") == "http" and runs.via[-1] == "http"
    assert "c2=9" in ed.notation and ed.sentence.startswith("Changing c2 to 9")
