"""Screenshots for issue 28's notes (not committed)."""
import requests
from app.practice.checker import practice_options
from app.practice.misconceptions import key_sheet, sheets

SHOTS = "/work/shots/w28"


def test_shots(browser, live_server):
    base = live_server
    # -- practice, deep cut-off tree as an upload
    deep = open("tests/practice/test_misconceptions_api.py").read().split('DEEP = """')[1].split('"""')[0]
    tid = requests.post(f"{base}/api/trees", data=deep.encode(),
                        headers={"Content-Type": "application/x-yaml"}).json()["id"]
    for lang, (w, h) in (("en", (1400, 900)), ("id", (390, 844))):
        ctx = browser.new_context(base_url=base, viewport={"width": w, "height": h},
                                  device_scale_factor=1 if w > 1000 else 2)
        pg = ctx.new_page()
        pg.goto(f"/practice/{tid}?mode=cuts&lang={lang}")
        pg.wait_for_selector("#practice.ready")
        for c in ("f2", "c2"):
            pg.locator(f'[data-cut="{c}"]').focus()
            pg.keyboard.press("Enter")
        pg.click("[data-action=check]")
        pg.locator("[data-role=misconception]").wait_for(state="visible")
        pg.locator("[data-role=feedback]").scroll_into_view_if_needed()
        pg.screenshot(path=f"{SHOTS}/practice-{lang}.png", full_page=True)
        ctx.close()
    # -- homework dashboard
    app = live_server.app
    a = requests.post(f"{base}/api/assignments", json={"title": "Alpha-beta HW", "attempts": None,
        "exercises": [{"tree": "random", "mode": "cuts", "branching": 3, "depth": 4},
                      {"tree": "random", "mode": "values", "branching": 3, "depth": 3}]}).json()
    auth = {"Authorization": f"Bearer {a['instructor']}"}
    for i in range(12):
        name = f"Student {i + 1}"
        tok = requests.post(f"{base}/api/assignments/{a['id']}/students", json={"student": name}).json()["token"]
        ex = requests.get(f"{base}/api/assignments/{a['id']}/students/{name}/exercises", headers=auth).json()
        for k, e in enumerate(ex):
            tree = app.extensions["trees"].get(e["tree"])
            mode = e["mode"]
            opts = practice_options(tree, mode)
            mine = dict(sheets(tree, opts, mode))
            pick = ["shallow", "shallow", "cutter", "right-to-left", "levels-swapped"][i % 5] if mode == "cuts" else "levels-swapped"
            sheet = mine.get(pick) or key_sheet(tree, opts)
            if i % 4 == 3:
                sheet = key_sheet(tree, opts)
            ans = {"pruned": list(sheet.pruned)} if mode == "cuts" else {"values": dict(sheet.values)}
            requests.post(f"{base}/api/assignments/{a['id']}/me/exercises/{k}",
                          headers={"X-Student-Token": tok}, json={"answers": ans})
    for lang in ("en", "id"):
        ctx = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
        pg = ctx.new_page()
        pg.goto(f"/a/{a['id']}/dashboard?lang={lang}#{a['instructor']}")
        pg.wait_for_selector("[data-role=misconceptions]:not([hidden])")
        pg.screenshot(path=f"{SHOTS}/dashboard-{lang}.png", full_page=True)
        ctx.close()
    # -- the projector's chart
    for lang in ("en", "id"):
        cls = requests.post(f"{base}/api/classes", json={"tree": "aima-fig-5-2", "algorithm": "alphabeta", "step": 1}).json()
        ctx = browser.new_context(base_url=base, viewport={"width": 1280, "height": 720})
        proj = ctx.new_page()
        proj.goto(f"/c/{cls['code']}/present?lang={lang}#{cls['instructor']}")
        proj.wait_for_selector("#class-present.ready", timeout=15000)
        proj.keyboard.press("ArrowRight")
        if proj.is_visible("[data-action=hide-join]"):
            proj.click("[data-action=hide-join]")
        proj.select_option("[data-ask=kind]", "pruned")
        proj.select_option("[data-ask=node]", "C")
        proj.click("[data-action=ask]")
        service = app.extensions["classes"]
        record = service.get(cls["code"])
        q = record["question"]
        for i, entry in enumerate([["c2", "c3"]] * 9 + [["c1", "c2", "c3"]] * 6 + [[]] * 4 + [["c3"]] * 2):
            sid = service.new_student(record)
            service.answer(cls["code"], sid, q["id"], entry)
        proj.click("[data-action=reveal]")
        proj.wait_for_selector("[data-chart] .bar-misconception")
        assert proj.locator("[data-chart] [data-right]").count() == 1
        proj.screenshot(path=f"{SHOTS}/projector-chart-{lang}.png")
        ctx.close()
