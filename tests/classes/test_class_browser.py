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
        const card = document.querySelector('.join-card');
        if (!card) return true;
        const box = card.getBoundingClientRect();
        return [...card.querySelectorAll('.join-code, .join-link a, .students')].every((e) => {
            const r = e.getBoundingClientRect();
            return r.left >= box.left - 1 && r.right <= box.right + 1
                && e.scrollWidth <= e.clientWidth + 1; });
    }""")
    assert inside, "the join code or link sticks out of its card"


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
        inst.wait_for_function("() => document.querySelector('[data-tally=answers]').textContent === '3'")
        assert inst.locator("[data-tally=right]").inner_text() == "67"
        assert "12" in inst.locator("[data-tally=wrong]").inner_text()
        for size, (w, h) in SIZES.items():
            inst.set_viewport_size({"width": w, "height": h})
            settled(inst)
            no_overflow(inst)
            shoot(inst, f"class-present-{size}-tally")
        inst.set_viewport_size({"width": 1366, "height": 768})
        for pg, size in zip(students, SIZES):
            no_overflow(pg)
            shoot(pg, f"class-student-{size}-answered")

        # Reveal: everyone goes to the step that shows the answer.
        inst.click("[data-action=reveal]")
        reveal = at(trace, "exit", "B")
        for pg in [inst, *students]:
            wait_step(pg, reveal)
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
        inst.wait_for_function("() => document.querySelector('[data-tally=answers]').textContent === '3'")
        assert inst.locator("[data-tally=right]").inner_text() == "33"
        inst.click("[data-action=reveal]")
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
        inst.wait_for_function("() => document.querySelector('[data-tally=answers]').textContent === '1'")
        assert inst.locator("[data-tally=right]").inner_text() == "100"
        shoot(phone, "class-student-phone-bounds")
        inst.click("[data-action=reveal]")
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
        proj.keyboard.press("p")
        proj.wait_for_function("() => document.documentElement.classList.contains('present')")
        assert proj.get_attribute("[data-action=present]", "aria-pressed") == "true"
        settled(proj)
        no_overflow(proj)
        shoot(proj, "class-present-projector-presentation")
        proj.click("[data-action=present]")
        proj.wait_for_function("() => !document.documentElement.classList.contains('present')")
    finally:
        ctx.close()
