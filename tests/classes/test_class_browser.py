"""The live class in the real browser (Debian's Chromium): an instructor starts
a class from the visualizer, three students join in separate browser
contexts (one a phone, 390x844 with touch), follow the steps, explore and snap
back, answer questions by typing and by tapping, the projector's tally
updates, the reveal moves everyone, and the end of the class reaches them.
Screenshots of every page at every size land in test-artifacts/."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests

from tests.browser.helpers import new_screen, settled, wait_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FIG52 = "aima-fig-5-2"
SIZES = {"phone": (390, 844), "laptop": (1366, 768), "projector": (1920, 1080)}
HOOKS = """() => Object.fromEntries([...document.querySelectorAll('[data-node]')].map(e =>
    [e.dataset.node, [e.dataset.status, e.dataset.value, e.dataset.alpha, e.dataset.beta]]))"""


def context(browser, base, size):
    """A new context and page at one of ``SIZES`` (the phone: touch, 2x pixels);
    ``page.js_errors`` collects its uncaught and console errors."""
    phone = size == "phone"
    return new_screen(browser, base, *SIZES[size], phone=phone, scale=2 if phone else 1, console=True)


def step_of(page) -> int:
    return int(page.locator("[data-step]").inner_text())


def shoot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


TREE_IN_VIEW = """() => {
    // Every drawn node's shape lies inside the stage and the viewport, at a
    // size a student can read (a node 12 px across shows no value).
    const stage = document.querySelector('#stage').getBoundingClientRect();
    const nodes = [...document.querySelectorAll('#stage svg [data-node] .shape')]
        .map((e) => e.getBoundingClientRect());
    return {stage: [stage.width, stage.height], count: nodes.length,
            small: nodes.filter((r) => r.width < 20 || r.height < 20).length,
            outside: nodes.filter((r) => r.top < Math.max(stage.top, 0) - 1
                || r.bottom > Math.min(stage.bottom, innerHeight) + 1
                || r.left < stage.left - 1 || r.right > stage.right + 1).length};
}"""


def tree_in_view(page):
    """The tree is drawn where the student can see it, not squeezed to nothing."""
    seen = page.evaluate(TREE_IN_VIEW)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert seen["stage"][0] >= 0.9 * width and seen["stage"][1] >= 0.3 * height, seen
    assert seen["count"] >= 13 and seen["small"] == 0 and seen["outside"] == 0, seen


def no_overflow(page):
    """No text cut off at the page's right edge (a horizontal scrollbar), and on
    the projector view, the join code and link inside their card."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    inside = page.evaluate("""() => {
        const card = document.querySelector('[data-join-view]');
        if (!card) return true;
        const box = card.getBoundingClientRect();
        return [...card.querySelectorAll('.join-code, .join-link a, .students')].every((e) => {
            const r = e.getBoundingClientRect();
            return r.left >= box.left - 1 && r.right <= box.right + 1
                && e.scrollWidth <= e.clientWidth + 1; });
    }""")
    assert inside, "the join code or link sticks out of its card"


def fair(inst):
    """Before the reveal the projector shows how many answered and nothing
    else: no right answer marked, no share right, no student's answer."""
    seen = inst.evaluate("""() => ({right: document.querySelectorAll('[data-right]').length,
        chart: document.querySelector('[data-chart]').children.length,
        text: document.querySelector('#tally').innerText})""")
    assert seen["right"] == 0 and seen["chart"] == 0, seen
    assert "%" not in seen["text"] and "Answer" not in seen["text"].replace("Answers", ""), seen


def chart(inst) -> dict:
    """The projector's answer chart: {answer: (count, right)}."""
    inst.wait_for_selector("[data-chart] [data-answer]")
    return {r[0]: (r[1], r[2]) for r in inst.evaluate("""() => [...document.querySelectorAll(
        '[data-chart] [data-answer]')].map((e) => [e.dataset.answer, e.dataset.count, 'right' in e.dataset])""")}


@pytest.fixture(scope="module")
def trace(live_server):
    return requests.get(f"{live_server}/api/trees/{FIG52}/trace?algorithm=alphabeta",
                        timeout=10).json()["events"]


def at(trace, kind, node):
    return next(e["step"] for e in trace if e["type"] == kind and e.get("node") == node)


def test_a_class_from_start_to_end(browser, live_server, trace):
    contexts = []
    try:
        ictx, inst = context(browser, live_server, "laptop")
        contexts.append(ictx)
        inst.goto(f"/t/{FIG52}?algorithm=alphabeta&step=2")
        inst.wait_for_selector("#visualizer.ready", timeout=15000)
        inst.click("[data-action=start-class]")
        inst.wait_for_selector("#class-present.ready", timeout=15000)
        assert "#" not in inst.url                       # the token left the projected address
        code = inst.get_attribute("[data-join-code]", "data-join-code")
        assert len(code) == 6 and step_of(inst) == 2
        link = inst.locator(".join-link a").inner_text()
        assert link.endswith(f"/c/{code}")

        students = []
        for size in ("phone", "laptop", "projector"):
            ctx, pg = context(browser, live_server, size)
            contexts.append(ctx)
            pg.goto(f"/c/{code}")
            pg.wait_for_selector("#class-student.ready", timeout=15000)
            students.append(pg)
        phone = students[0]
        inst.wait_for_function("() => document.querySelector('[data-students]').textContent === '3'")
        for pg in students:                                # late joiners see the class's step
            assert step_of(pg) == 2

        # Follow: the instructor's keys move every phone.
        inst.keyboard.press("ArrowRight")
        inst.keyboard.press("ArrowRight")
        for pg in students:
            wait_step(pg, 4)
            assert pg.evaluate(HOOKS) == inst.evaluate(HOOKS)
            tree_in_view(pg)

        # Explore and snap back.
        phone.tap("[data-action=step-back]")
        phone.tap("[data-action=step-back]")
        wait_step(phone, 2)
        assert phone.is_visible("[data-action=back-to-class]")
        inst.keyboard.press("ArrowRight")
        wait_step(students[1], 5)
        assert step_of(phone) == 2                        # exploring: not pulled along
        phone.tap("[data-action=back-to-class]")
        wait_step(phone, 5)
        assert not phone.is_visible("[data-action=back-to-class]")
        shoot(phone, "class-student-phone-follow")

        # A typed question: the value B returns.
        inst.select_option("[data-ask=kind]", "value")
        inst.select_option("[data-ask=node]", "B")
        inst.click("[data-action=ask]")
        for pg, entry in zip(students, ["3", "12", "3"]):
            pg.wait_for_selector("#question:not([hidden]) [data-answer=value]")
            if pg is phone:
                phone.tap("[data-answer=value]")
                phone.keyboard.type(entry)
                phone.tap("[data-action=send-answer]")
            else:
                pg.fill("[data-answer=value]", entry)
                pg.click("[data-action=send-answer]")
            pg.wait_for_selector("#question[data-verdict=pending]")
        inst.wait_for_function("() => document.querySelector('[data-tally-answered]').textContent === '3'")
        fair(inst)
        for size, (w, h) in SIZES.items():
            inst.set_viewport_size({"width": w, "height": h})
            settled(inst)
            no_overflow(inst)
            shoot(inst, f"class-present-{size}-tally")
        inst.set_viewport_size({"width": 1366, "height": 768})
        for pg, size in zip(students, SIZES):
            no_overflow(pg)
            shoot(pg, f"class-student-{size}-answered")

        # Reveal: everyone goes to the step that shows the answer, the chart appears.
        inst.click("[data-action=reveal]")
        reveal = at(trace, "exit", "B")
        for pg in [inst, *students]:
            wait_step(pg, reveal)
        assert chart(inst) == {"3": ("2", True), "12": ("1", False)}
        assert inst.locator("[data-node=B]").get_attribute("data-value") == "3"
        phone.wait_for_selector("#question[data-verdict=right]")
        students[1].wait_for_selector("#question[data-verdict=wrong]")
        shoot(phone, "class-student-phone-reveal")

        # A tapped question: which children of C are pruned (tap the branches' buttons).
        inst.keyboard.press("Home")
        for pg in students:
            wait_step(pg, 0)
        enter_c = at(trace, "enter", "C")
        inst.evaluate("k => window.classPage.session.goTo(k)", enter_c)
        for pg in students:
            wait_step(pg, enter_c)
        inst.select_option("[data-ask=kind]", "pruned")
        inst.select_option("[data-ask=node]", "C")
        inst.click("[data-action=ask]")
        phone.wait_for_selector("[data-choice=c2]")
        phone.tap("[data-choice=c2]")
        phone.tap("[data-choice=c3]")
        phone.tap("[data-action=send-answer]")
        students[1].click("[data-choice=c3]")
        students[1].click("[data-action=send-answer]")
        students[2].click("[data-choice='']")             # "none"
        students[2].click("[data-action=send-answer]")
        inst.wait_for_function("() => document.querySelector('[data-tally-answered]').textContent === '3'")
        fair(inst)
        inst.click("[data-action=reveal]")
        inst.wait_for_selector("[data-chart] [data-right]")
        assert chart(inst) == {"c2, c3": ("1", True), "c3": ("1", False), "none": ("1", False)}
        for pg in [inst, *students]:
            wait_step(pg, at(trace, "prune", "C"))
        phone.wait_for_selector("#question[data-verdict=right]")
        assert phone.locator("[data-node=c2]").get_attribute("data-status") == "pruned"

        # The end reaches every phone.
        inst.on("dialog", lambda d: d.accept())
        inst.click("[data-action=end-class]")
        for pg in students:
            pg.wait_for_selector("#class-alert:not([hidden])")
            assert "ended" in pg.locator("[role=alert]").inner_text()
        shoot(phone, "class-student-phone-ended")
        for pg in [inst, *students]:
            assert not [e for e in pg.js_errors if "status of 4" not in e], pg.js_errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_second_device_and_reload_keep_the_instructor(browser, live_server):
    cls = requests.post(f"{live_server}/api/classes", json={"tree": FIG52, "step": 1},
                        timeout=10).json()
    ctx, tablet = context(browser, live_server, "phone")
    try:
        tablet.goto(f"/c/{cls['code']}/present#{cls['instructor']}")
        tablet.wait_for_selector("#class-present.ready", timeout=15000)
        tablet.reload()                                   # the token is kept in this browser
        tablet.wait_for_selector("#class-present.ready", timeout=15000)
        tablet.tap("[data-action=step-forward]")
        tablet.wait_for_function("() => document.querySelector('[data-step]').textContent === '2'")
        deadline = time.monotonic() + 15      # the page shows the step before the server has it
        while time.monotonic() < deadline:
            state = requests.get(f"{live_server}/api/classes/{cls['code']}", timeout=10).json()
            if state["step"] == 2:
                break
            time.sleep(0.1)
        assert state["step"] == 2
        no_overflow(tablet)
        shoot(tablet, "class-present-phone")
        # Without the token, the projector view cannot drive.
        other, page = context(browser, live_server, "laptop")
        page.goto(f"/c/{cls['code']}/present")
        page.wait_for_selector("#class-alert:not([hidden])")
        assert "instructor" in page.locator("#class-alert").inner_text()
        other.close()
    finally:
        ctx.close()


def test_unknown_code_shows_an_alert(browser, live_server):
    ctx, page = context(browser, live_server, "phone")
    try:
        page.goto("/c/QQQQQQ")
        assert page.locator("[role=alert]").is_visible()
        page.fill("#code", "qqq-qqq")
        page.click("button[type=submit]")
        assert page.locator("[role=alert]").is_visible()
        shoot(page, "class-join-phone")
    finally:
        ctx.close()


def test_bounds_question_hides_the_bounds_until_the_reveal(browser, live_server, trace):
    k = at(trace, "enter", "C") + 1
    cls = requests.post(f"{live_server}/api/classes",
                        json={"tree": FIG52, "algorithm": "alphabeta", "step": k}, timeout=10).json()
    runs = live_server.app.extensions["stream"].runs
    before = runs.count()
    ictx, inst = context(browser, live_server, "laptop")
    sctx, phone = context(browser, live_server, "phone")
    try:
        inst.goto(f"/c/{cls['code']}/present#{cls['instructor']}")
        inst.wait_for_selector("#class-present.ready", timeout=15000)
        phone.goto(f"/c/{cls['code']}")
        phone.wait_for_selector("#class-student.ready", timeout=15000)
        # The whole run is on both pages: neither holds a run on the server.
        deadline = time.monotonic() + 10
        while runs.count() > before and time.monotonic() < deadline:
            time.sleep(0.1)
        assert runs.count() <= before
        assert inst.is_visible("[data-join-view].full")       # the class starts on the join view
        inst.click("[data-action=hide-join]")                 # the instructor's "Start"
        inst.select_option("[data-ask=kind]", "bounds")
        inst.select_option("[data-ask=node]", "C")
        inst.click("[data-action=ask]")
        phone.wait_for_selector("[data-answer=alpha]")
        hidden = "() => getComputedStyle(document.querySelector('[data-node=C] .bounds')).visibility"
        for pg in (inst, phone):
            pg.wait_for_selector("[data-node=C].masked")
            assert pg.evaluate(hidden) == "hidden"
        phone.tap("[data-answer=alpha]")
        phone.keyboard.type("3")
        phone.locator(".num-row").nth(1).locator("button", has_text="+∞").tap()
        phone.tap("[data-action=send-answer]")
        inst.wait_for_function("() => document.querySelector('[data-tally-answered]').textContent === '1'")
        fair(inst)
        shoot(phone, "class-student-phone-bounds")
        inst.click("[data-action=reveal]")
        inst.wait_for_selector("[data-chart] [data-right]")
        assert chart(inst) == {"α = 3, β = +∞": ("1", True)}
        phone.wait_for_selector("#question[data-verdict=right]")
        assert phone.locator("[data-node=C].masked").count() == 0
        assert phone.evaluate(hidden) == "visible"
        assert step_of(phone) == k                          # the answer was on the board already
    finally:
        ictx.close()
        sctx.close()


def test_a_phone_that_loses_the_network_catches_up_and_keeps_its_answer(browser, live_server):
    cls = requests.post(f"{live_server}/api/classes",
                        json={"tree": FIG52, "algorithm": "alphabeta", "step": 1}, timeout=10).json()
    code, token = cls["code"], cls["instructor"]
    ctx, phone = context(browser, live_server, "phone")
    import socketio  # noqa: PLC0415 - the instructor drives over a plain client here
    inst = socketio.Client(reconnection=False)
    try:
        inst.connect(live_server, namespaces=["/class"], transports=["websocket"], wait_timeout=10)
        assert inst.call("present", {"code": code, "token": token}, namespace="/class")["ok"]
        phone.goto(f"/c/{code}")
        phone.wait_for_selector("#class-student.ready", timeout=15000)
        q = inst.call("ask", {"code": code, "token": token, "kind": "move"},
                      namespace="/class")["state"]["question"]
        phone.wait_for_selector("[data-choice=B]")
        phone.tap("[data-choice=B]")
        phone.tap("[data-action=send-answer]")
        phone.wait_for_selector("#question[data-verdict=pending]")
        ctx.set_offline(True)
        phone.wait_for_selector("#class-alert:not([hidden])", timeout=30000)   # "reconnecting"
        inst.call("step", {"code": code, "token": token, "step": 3}, namespace="/class")
        ctx.set_offline(False)
        wait_step(phone, 3)                                  # caught up at once on reconnect
        phone.wait_for_selector("#class-alert", state="hidden", timeout=30000)
        assert phone.locator("#question").get_attribute("data-verdict") == "pending"
        tally = inst.call("present", {"code": code, "token": token}, namespace="/class")["state"]["tally"]
        assert tally["question"] == q["id"] and tally["answers"] == 1   # counted once
        assert tally["students"] == 1
    finally:
        inst.disconnect()
        ctx.close()


def test_projector_presentation_mode(browser, live_server):
    cls = requests.post(f"{live_server}/api/classes", json={"tree": FIG52, "step": 5},
                        timeout=10).json()
    ctx, proj = context(browser, live_server, "projector")
    try:
        proj.goto(f"/c/{cls['code']}/present#{cls['instructor']}")
        proj.wait_for_selector("#class-present.ready", timeout=15000)
        # Presentation mode is the projector's default; P leaves it and comes back.
        assert proj.evaluate("document.documentElement.classList.contains('present')")
        assert proj.get_attribute("[data-action=present]", "aria-pressed") == "true"
        proj.keyboard.press("Escape")                   # the join view to its corner
        settled(proj)
        no_overflow(proj)
        shoot(proj, "class-present-projector-presentation")
        proj.keyboard.press("p")
        proj.wait_for_function("() => !document.documentElement.classList.contains('present')")
        proj.click("[data-action=present]")
        proj.wait_for_function("() => document.documentElement.classList.contains('present')")
    finally:
        ctx.close()


JOIN_SIZES = """() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
    const link = document.querySelector('[data-join-view] .join-link');
    return {view: r('[data-join-view]').height, code: r('[data-join-code]').height,
            qr: Math.min(r('[data-join-qr] svg').height, r('[data-join-qr] svg').width),
            linkFont: parseFloat(getComputedStyle(link).fontSize), linkLines: Math.round(r('.join-link a').height / parseFloat(getComputedStyle(link).lineHeight)),
            linkWhole: link.scrollWidth <= link.clientWidth + 1, h: innerHeight}; }"""

SENTENCE_WHOLE = """async (total) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const n = document.querySelector('#narration'), cut = [];
    for (let k = 0; k <= total; k++) {
      await window.classPage.session.goTo(k);
      await frame(); await frame();
      if (n.scrollHeight > n.clientHeight + 1) cut.push([k, n.textContent]);
    }
    return cut; }"""


def test_the_room(browser, live_server, trace):
    """Issue 19 as the room sees it: the projector (1920x1080) opens on the
    join view at hall sizes, live count; stepping sends it to the corner and
    "Show join" brings it back; a fair question (only how many answered);
    "Discuss and vote again" and a chart of both rounds after the reveal; an
    Indonesian phone at 360x640 reads the question in Indonesian with every
    sentence whole; the report downloads as CSV."""
    cls = requests.post(f"{live_server}/api/classes",
                        json={"tree": FIG52, "algorithm": "alphabeta", "step": 1}, timeout=10).json()
    code = cls["code"]
    pctx, proj = context(browser, live_server, "projector")
    contexts = [pctx]
    try:
        proj.goto(f"/c/{code}/present#{cls['instructor']}")
        proj.wait_for_selector("#class-present.ready", timeout=15000)
        phones = []
        for (w, h), lang in (((390, 844), "en"), ((360, 640), "id")):
            ctx, pg = new_screen(browser, live_server, w, h, phone=True, scale=2, console=True)
            contexts.append(ctx)
            pg.goto(f"/c/{code}?lang={lang}")
            pg.wait_for_selector("#class-student.ready", timeout=15000)
            phones.append(pg)
        en, idn = phones
        proj.wait_for_function("() => document.querySelector('[data-students]').textContent === '2'")
        sizes = proj.evaluate(JOIN_SIZES)
        assert sizes["view"] >= 0.99 * sizes["h"], sizes                  # the whole screen
        assert sizes["code"] >= 0.10 * sizes["h"] and sizes["qr"] >= 0.40 * sizes["h"], sizes
        assert sizes["linkFont"] >= 0.04 * sizes["h"] and sizes["linkWhole"], sizes
        assert sizes["linkLines"] == 1, sizes
        assert proj.locator("[data-join-view] .join-link").inner_text().endswith(f"/c/{code}")
        shoot(proj, "class-present-projector-join")
        proj.keyboard.press("ArrowRight")                    # a step: the join view to its corner
        wait_step(en, 2)
        corner = proj.evaluate(JOIN_SIZES)
        assert corner["view"] < 0.3 * corner["h"] and proj.is_visible("[data-join-code]"), corner
        proj.click("[data-action=show-join]")
        assert proj.evaluate(JOIN_SIZES)["view"] >= 0.99 * sizes["h"]
        proj.click("[data-action=hide-join]")

        # A fair question, twice: the same question reopened, both rounds in the chart.
        proj.select_option("[data-ask=kind]", "value")
        proj.select_option("[data-ask=node]", "B")
        proj.click("[data-action=ask]")
        idn.wait_for_selector("[data-answer=value]")
        said = idn.locator("[data-question]").inner_text()
        assert "B" in said and said.startswith("Nilai berapa"), said         # in Indonesian
        assert en.locator("[data-question]").inner_text() == "What value does B return?"
        for pg in (idn, en):                                   # the question is open
            cut = pg.evaluate(SENTENCE_WHOLE, len(trace) - 1)
            assert not cut, cut
        idn.tap("[data-action=back-to-class]") if idn.is_visible("[data-action=back-to-class]") else None
        for pg, entry in ((en, "12"), (idn, "12")):
            pg.fill("[data-answer=value]", entry)
            pg.tap("[data-action=send-answer]")
            pg.wait_for_selector("#question[data-verdict=pending]")
        proj.wait_for_function("() => document.querySelector('[data-tally-answered]').textContent === '2'")
        fair(proj)
        proj.click("[data-action=revote]")
        for pg, entry in ((en, "3"), (idn, "12")):
            pg.wait_for_selector("#question:not([data-verdict]) [data-answer=value]")
            assert pg.is_visible("[data-role=again]")
            pg.fill("[data-answer=value]", entry)
            pg.tap("[data-action=send-answer]")
            pg.wait_for_selector("#question[data-verdict=pending]")
        proj.wait_for_function("() => document.querySelector('[data-tally-answered]').textContent === '2'")
        fair(proj)
        shoot(idn, "class-student-phone360-id-question")
        proj.click("[data-action=reveal]")
        assert chart(proj) == {"12": ("1", False), "3": ("1", True)}
        kids = proj.evaluate("""() => [...document.querySelector('[data-chart]').children]
            .map((e) => e.className + ':' + ('answer' in e.dataset))""")
        assert all(k.endswith(":true") for k in kids), kids   # the chart holds the answers only
        rounds = proj.evaluate("""() => [...document.querySelectorAll('[data-chart] [data-answer]')]
            .map((e) => [e.dataset.answer, e.dataset.counts, e.querySelectorAll('.bar').length])""")
        assert sorted(rounds) == [["12", "2,1", 2], ["3", "0,1", 2]]
        label = proj.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-chart] .bar-label')).fontSize)")
        assert label >= 24                                   # read from the back of the hall
        idn.wait_for_selector("#question[data-verdict=wrong]")
        assert "jawaban" in idn.locator("[data-role=q-status]").inner_text().lower()
        shoot(proj, "class-present-projector-chart")

        # The report: the page, and its CSV behind the instructor's key.
        report = proj.context.new_page()
        report.goto(f"/c/{code}/report")
        report.wait_for_selector("#class-report.ready", timeout=15000)
        assert report.locator("[data-report-question]").count() == 1
        with report.expect_download() as got:
            report.click("[data-action=download-csv]")
        text = Path(got.value.path()).read_text()
        assert text.startswith("question,step,node,kind,round,answer,right,count")
        assert "1,2,B,value,2,3,1,1" in text.replace("\r", "")
        for pg in [proj, *phones]:
            assert not [e for e in pg.js_errors if "status of 4" not in e], pg.js_errors
    finally:
        for ctx in contexts:
            ctx.close()
