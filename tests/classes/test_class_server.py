"""The live class over HTTP and Socket.IO (Flask-SocketIO's test client):
following, questions, tallies, and every refusal of the issue's point 4 and
its abuse list."""
from __future__ import annotations

import logging
import time

import pytest

FIG52 = "aima-fig-5-2"


def present(conns, cls):
    inst = conns()
    ack = inst.call("present", {"code": cls["code"], "token": cls["instructor"]})
    assert ack["ok"], ack
    return inst


def join(conns, cls, student=None):
    s = conns()
    payload = {"code": cls["code"]}
    if student:
        payload["student"] = student
    ack = s.call("join", payload)
    assert ack["ok"], ack
    return s, ack


def wait_tally(inst, answers, timeout=5.0):
    """The instructor's tallies come a moment after the answers (coalesced)."""
    got, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        got += inst.received("tally")
        if got and got[-1]["answers"] == answers:
            return got[-1]
        time.sleep(0.05)
    raise AssertionError(f"no tally of {answers} answers: {got}")


def test_create_answers_the_contract(client, new_class):
    cls = new_class(step=3)
    assert set(cls) >= {"code", "join", "instructor"}
    assert cls["join"] == f"/c/{cls['code']}" and cls["instructor"] not in cls["join"]
    assert len(cls["code"]) == 6 and not set(cls["code"]) & set("0O1IL5S2Z8BUV")
    state = client.get(f"/api/classes/{cls['code']}").get_json()
    assert state["step"] == 3 and state["tree"] == FIG52
    assert "token" not in state and cls["instructor"] not in str(state)


@pytest.mark.parametrize("body, status, words", [
    ({"algorithm": "alphabeta"}, 400, "tree"),
    ({"tree": "no-such-tree"}, 404, ""),
    ({"tree": FIG52, "algorithm": "quantum"}, 400, "algorithm"),
    ({"tree": FIG52, "step": -1}, 400, "step"),
    ({"tree": FIG52, "step": True}, 400, "step"),
    ({"tree": FIG52, "colour": "red"}, 400, "colour"),
    ([1, 2], 400, "JSON object"),
])
def test_create_refuses_bad_bodies(client, body, status, words):
    res = client.post("/api/classes", json=body)
    assert res.status_code == status, res.get_json()
    assert words in res.get_json()["error"]["message"]


def test_pages_and_hooks(client, new_class):
    cls = new_class()
    code = cls["code"]
    student = client.get(f"/c/{code}")
    assert student.status_code == 200 and b"data-step" in student.data
    assert client.get(f"/c/{code.lower()}").status_code == 302      # typed in lower case
    projector = client.get(f"/c/{code}/present")
    html = projector.get_data(as_text=True)
    assert projector.status_code == 200
    assert f'data-join-code="{code}"' in html and "data-students" in html
    assert "<svg" in html and f"/c/{code}" in html                   # the QR and the link
    assert cls["instructor"] not in html and cls["instructor"] not in student.get_data(as_text=True)
    missing = client.get("/c/ACDEFG")
    assert missing.status_code == 404 and b'role="alert"' in missing.data
    # The tree's title in the page's language (the file's own translation).
    for page in (f"/c/{code}", f"/c/{code}/present", f"/c/{code}/report"):
        html = client.get(f"{page}?lang=id").get_data(as_text=True)
        assert "AIMA Gambar 5.2" in html and "AIMA Figure 5.2" not in html, page


def test_students_follow_every_step_in_order(conns, new_class):
    cls = new_class()
    inst = present(conns, cls)
    students = [join(conns, cls)[0] for _ in range(3)]
    for k in (1, 2, 3, 5, 4):
        assert inst.call("step", {"code": cls["code"], "token": cls["instructor"], "step": k})["ok"]
    for s in students:
        got = s.received("state")
        assert [m["step"] for m in got] == [1, 2, 3, 5, 4]
        assert [m["seq"] for m in got] == sorted(m["seq"] for m in got)
    counts = [m["students"] for m in inst.received("students")]
    assert counts[-1] == 3


def test_late_join_gets_the_current_state_and_question(conns, new_class, step_of):
    cls = new_class()
    inst = present(conns, cls)
    at_c = step_of("enter", "C")
    inst.call("step", {"code": cls["code"], "token": cls["instructor"], "step": at_c})
    inst.call("ask", {"code": cls["code"], "token": cls["instructor"], "kind": "pruned", "node": "C"})
    _, ack = join(conns, cls)
    state = ack["state"]
    assert state["step"] == at_c and state["question"]["kind"] == "pruned"
    assert "answer" not in state["question"]                         # not before the reveal


def test_question_tally_reveal(conns, new_class, step_of):
    """A fair question: until the reveal the projector learns only how many
    answered; the second device (``live``) sees the answer and the live
    distribution; the reveal brings the chart to both."""
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    device = conns()
    assert device.call("present", {"code": code, "token": token, "live": True})["ok"]
    pupils = [join(conns, cls)[0] for _ in range(4)]
    inst.call("step", {"code": code, "token": token, "step": 2})
    q = inst.call("ask", {"code": code, "token": token, "kind": "value", "node": "B"})["state"]["question"]
    assert "answer" not in q and "answer_text" not in q and q["reveal_step"] == step_of("exit", "B")
    live_q = device.received("instructor")[-1]["question"]
    assert live_q["answer"] == 3 and live_q["answer_text"] == "3"
    for s, entry in zip(pupils, ["3", "3", "12", "12"]):
        assert s.call("answer", {"code": code, "question": q["id"], "answer": entry})["accepted"]
    tally = wait_tally(inst, 4)
    assert set(tally) == {"question", "round", "answers", "students"}     # a count, nothing more
    for m in inst.received():
        assert "right" not in str(m) and "wrong" not in str(m) and "chart" not in str(m), m
    live = wait_tally(device, 4)
    assert (live["answers"], live["right"]) == (4, 2)
    assert live["wrong"] == [{"label": "12", "count": 2}]
    assert {b["label"]: (b["counts"], b["right"]) for b in live["chart"]["bars"]} == {
        "3": ([2], True), "12": ([2], False)}
    for s in pupils:                      # students never get the tally or the answer early
        assert not s.received("tally")
        assert all("answer" not in (m["question"] or {}) for m in s.received("state"))
    revealed = inst.call("reveal", {"code": code, "token": token})["state"]
    assert revealed["step"] == q["reveal_step"] and revealed["question"]["revealed"]
    assert revealed["question"]["answer_text"] == "3"
    chart = revealed["tally"]["chart"]
    assert chart["answers"] == [4] and chart["right"] == [2]
    assert [(b["label"], b["counts"], b["right"]) for b in chart["bars"]] == [
        ("3", [2], True), ("12", [2], False)]
    last = pupils[2].received("state")[-1]
    assert last["step"] == q["reveal_step"] and last["question"]["answer"] == 3
    assert pupils[2].call("mine", {"code": code})["mine"] == {
        "question": q["id"], "round": 1, "answered": True, "label": "12", "right": False}
    late = pupils[0].call("answer", {"code": code, "question": q["id"], "answer": "3"})
    assert not late["ok"] and late["error"]["status"] == 409


def test_discuss_and_vote_again_keeps_both_rounds(conns, new_class, client):
    """Peer instruction: the same question reopens, everyone answers again,
    the chart and the report show both rounds side by side."""
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    pupils = [join(conns, cls)[0] for _ in range(3)]
    q = inst.call("ask", {"code": code, "token": token, "kind": "value", "node": "B"})["state"]["question"]
    for s, entry in zip(pupils, ["12", "12", "3"]):
        assert s.call("answer", {"code": code, "question": q["id"], "answer": entry})["accepted"]
    again = inst.call("revote", {"code": code, "token": token})["state"]
    assert again["question"]["id"] == q["id"] and again["question"]["round"] == 2
    assert again["tally"]["answers"] == 0 and "chart" not in again["tally"]
    assert pupils[0].received("state")[-1]["question"]["round"] == 2
    assert pupils[0].call("mine", {"code": code})["mine"]["answered"] is False
    for s, entry in zip(pupils, ["3", "12", "3"]):
        assert s.call("answer", {"code": code, "question": q["id"], "answer": entry})["accepted"]
    assert not pupils[0].call("answer", {"code": code, "question": q["id"], "answer": "8"})["accepted"]
    chart = inst.call("reveal", {"code": code, "token": token})["state"]["tally"]["chart"]
    assert chart["rounds"] == 2 and chart["answers"] == [3, 3] and chart["right"] == [1, 2]
    # equal totals: the right answer first
    assert [(b["label"], b["counts"]) for b in chart["bars"]] == [("3", [1, 2]), ("12", [2, 1])]
    res = client.get(f"/api/classes/{code}/report.csv",
                     headers={"Authorization": f"Bearer {token}"})
    assert res.status_code == 200 and res.mimetype == "text/csv"
    lines = res.get_data(as_text=True).splitlines()
    head = lines[0].split(",")
    assert head[:8] == ["question", "step", "node", "kind", "round", "answer", "right", "count"]
    rows = [dict(zip(head, line.split(","))) for line in lines[1:]]
    got = {(r["round"], r["answer"]): (r["right"], r["count"], r["share_right"]) for r in rows}
    assert got == {("1", "12"): ("0", "2", "0.333"), ("1", "3"): ("1", "1", "0.333"),
                   ("2", "12"): ("0", "1", "0.667"), ("2", "3"): ("1", "2", "0.667")}
    assert all(r["node"] == "B" and r["kind"] == "value" and r["step"] == "0" for r in rows)
    for p in pupils:                                 # no student identifier anywhere in it
        sid = p.call("join", {"code": code})["student"]
        assert sid not in res.get_data(as_text=True)


def test_the_report_is_the_instructors_only(client, new_class):
    cls = new_class()
    url = f"/api/classes/{cls['code']}/report.csv"
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer not-the-token"}).status_code == 403
    ok = client.get(url, headers={"Authorization": f"Bearer {cls['instructor']}"})
    assert ok.status_code == 200 and ok.get_data(as_text=True).startswith("question,step,node")
    report = client.get(f"/api/classes/{cls['code']}/report",
                        headers={"Authorization": f"Bearer {cls['instructor']}"}).get_json()
    assert report["rows"] == [] and report["columns"][:3] == ["question", "step", "node"]


def test_questions_travel_as_catalogue_messages(conns, new_class, client):
    """Each page says the question in its own language: the state carries the
    message id and its fields, and the catalogue has the Indonesian."""
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    s, _ = join(conns, cls)
    inst.call("ask", {"code": code, "token": token, "kind": "value", "node": "B"})
    q = s.received("state")[-1]["question"]
    assert q["say"] == {"msgid": "What value does {x} return?", "fields": {"x": "B"}}
    from app.i18n import message_in
    said = message_in(q["say"]["msgid"], q["say"]["fields"], "id")
    assert "B" in said and said != "What value does B return?"
    js = client.get("/i18n/id.json").get_json()
    assert js[q["say"]["msgid"]] and js["none"]


def test_a_countdown_closes_the_answers(conns, new_class, app):
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    s, _ = join(conns, cls)
    bad = inst.call("ask", {"code": code, "token": token, "kind": "move", "seconds": 2})
    assert not bad["ok"] and "seconds" in bad["error"]["message"]
    q = inst.call("ask", {"code": code, "token": token, "kind": "move", "seconds": 30})["state"]["question"]
    assert 29 <= q["remaining"] <= 30
    assert s.received("state")[-1]["question"]["remaining"] > 29
    service = app.extensions["classes"]
    service.clock = lambda: time.time() + 40                       # the time is up
    late = s.call("answer", {"code": code, "question": q["id"], "answer": "B"})
    assert not late["ok"] and late["error"]["status"] == 409 and "time" in late["error"]["message"]


def test_one_answer_per_student_even_across_reconnects(conns, new_class):
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    s, ack = join(conns, cls)
    q = inst.call("ask", {"code": code, "token": token, "kind": "move"})["state"]["question"]
    assert s.call("answer", {"code": code, "question": q["id"], "answer": "C"})["accepted"]
    again = s.call("answer", {"code": code, "question": q["id"], "answer": "B"})
    assert again["ok"] and not again["accepted"] and again["label"] == "C"
    s.close()
    back, ack2 = join(conns, cls, student=ack["student"])            # a reconnect
    assert ack2["mine"]["label"] == "C"
    assert not back.call("answer", {"code": code, "question": q["id"], "answer": "B"})["accepted"]
    t = inst.call("present", {"code": code, "token": token, "live": True})["state"]["tally"]
    assert (t["answers"], t["right"]) == (1, 0)


def test_one_connection_is_one_student(conns, new_class):
    """Issue 17, finding 4: joining again on the same connection, without an
    id or with a made-up one, before each answer cast a vote each time."""
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    s, ack = join(conns, cls)
    q = inst.call("ask", {"code": code, "token": token, "kind": "move"})["state"]["question"]
    for payload in ({"code": code}, {"code": code, "student": "x" * 28}, {"code": code}):
        assert s.call("answer", {"code": code, "question": q["id"], "answer": "B"})["ok"]
        again = s.call("join", payload)
        assert again["ok"] and again["student"] == ack["student"]
    forged = conns()                                   # a fresh connection, an id made up
    made_up = forged.call("join", {"code": code, "student": "A" * 28})
    assert made_up["ok"] and made_up["student"] != "A" * 28
    t = inst.call("present", {"code": code, "token": token, "live": True})["state"]
    assert t["tally"]["answers"] == 1 and t["students"] == 2


@pytest.mark.parametrize("event, extra", [
    ("step", {"step": 4}), ("ask", {"kind": "move"}), ("reveal", {}), ("dismiss", {}), ("end", {}),
])
def test_a_students_forged_driving_message_is_refused_and_logged(conns, new_class, caplog,
                                                                  event, extra):
    cls = new_class()
    inst = present(conns, cls)
    s, _ = join(conns, cls)
    if event in ("reveal", "dismiss"):
        inst.call("ask", {"code": cls["code"], "token": cls["instructor"], "kind": "move"})
    s.received()
    before = inst.call("present", {"code": cls["code"], "token": cls["instructor"]})["state"]
    # Refusals are logged once per address a minute, the rest counted (issue 17):
    # a fresh minute for this test's client, and a zero interval for the line after.
    from app.web.fairshare import Once, ThrottleFilter
    throttle = next(f for f in logging.getLogger("app.web.class_sockets").filters
                    if isinstance(f, ThrottleFilter))
    throttle.once = Once(60.0)
    with caplog.at_level(logging.WARNING, logger="app.web.class_sockets"):
        real = cls["instructor"]
        # One character off (a token that already ends in "x" would forge nothing).
        near = real[:-1] + ("y" if real.endswith("x") else "x")
        for token in ("forged-token", "", near):
            ack = s.call(event, {"code": cls["code"], "token": token, **extra})
            assert ack["ok"] is False and ack["error"]["status"] == 403
        missing = s.call(event, {"code": cls["code"], **extra})
        assert missing["ok"] is False
    lines = [r.getMessage() for r in caplog.records if f"refused {event}" in r.getMessage()]
    assert len(lines) == 1 and "more refused" not in lines[0]   # the first of four refusals
    throttle.once.interval = 0          # the minute is over: the next line counts the three
    with caplog.at_level(logging.WARNING, logger="app.web.class_sockets"):
        s.call(event, {"code": cls["code"], "token": "forged-token", **extra})
    lines = [r.getMessage() for r in caplog.records if f"refused {event}" in r.getMessage()]
    assert len(lines) == 2 and "(3 more refused in the last 0 s)" in lines[1]
    after = inst.call("present", {"code": cls["code"], "token": cls["instructor"]})["state"]
    assert (after["step"], after["seq"], after["ended"]) == (before["step"], before["seq"], None)
    assert not s.received("state")


@pytest.mark.parametrize("payload", [
    "not an object", 42, None, ["x"],
    {"code": "KKKKKK", "token": 5, "step": 1},
    {"code": 123, "token": "t", "step": 1},
    {"token": "t", "step": 1},
    {"code": "KKKKKK", "token": "t" * 5000, "step": 1},
])
def test_malformed_driving_payloads_are_refused(conns, payload):
    ack = conns().call("step", payload)
    assert ack["ok"] is False and ack["error"]["message"]


@pytest.mark.parametrize("step", [-1, True, 2.5, "3", 10**12, None])
def test_bad_steps_are_refused(conns, new_class, step):
    cls = new_class()
    inst = present(conns, cls)
    ack = inst.call("step", {"code": cls["code"], "token": cls["instructor"], "step": step})
    assert ack["ok"] is False and "step" in ack["error"]["message"]


def test_unknown_fields_and_events(conns, new_class):
    cls = new_class()
    s, _ = join(conns, cls)
    assert s.call("join", {"code": cls["code"], "name": "Bob"})["ok"] is False
    assert s.call("hack", {"code": cls["code"]})["ok"] is False
    assert s.call("join", {"code": cls["code"], "student": "short"})["ok"] is False


def test_answers_need_a_joined_student_and_a_small_open_question(conns, new_class, app):
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    q = inst.call("ask", {"code": code, "token": token, "kind": "value", "node": "B"})["state"]["question"]
    stranger = conns()
    ack = stranger.call("answer", {"code": code, "question": q["id"], "answer": "3"})
    assert ack["error"]["status"] == 403
    s, _ = join(conns, cls)
    big = "9" * (app.extensions["budget"].classes.answer_bytes + 10)
    assert s.call("answer", {"code": code, "question": q["id"], "answer": big})["error"]["status"] == 413
    assert s.call("answer", {"code": code, "question": "q99", "answer": "3"})["error"]["status"] == 409
    bad = s.call("answer", {"code": code, "question": q["id"], "answer": "three"})
    assert bad["error"]["status"] == 400 and "not a number" in bad["error"]["message"]
    assert s.call("answer", {"code": code, "question": q["id"], "answer": "3"})["accepted"]  # still may


def test_class_cap_with_a_clear_message(make_app, conns):
    app = make_app(BUDGET={"class_students": 2})
    client = app.test_client()
    from tests.classes.conftest import Conn  # noqa: PLC0415
    cls = client.post("/api/classes", json={"tree": FIG52}).get_json()
    made = [Conn(app, client) for _ in range(3)]
    acks = [c.call("join", {"code": cls["code"]}) for c in made]
    assert acks[0]["ok"] and acks[1]["ok"]
    assert acks[2]["ok"] is False and "full" in acks[2]["error"]["message"]
    again = Conn(app, client).call("join", {"code": cls["code"], "student": acks[0]["student"]})
    assert again["ok"]                                               # a known student comes back
    for c in made:
        c.close()


def test_join_guessing_is_rate_limited_over_both_ways_in(make_app):
    app = make_app(CLASS_JOIN_RATE="3/minute")
    client = app.test_client()
    from tests.classes.conftest import Conn  # noqa: PLC0415
    guesser = Conn(app, client)
    for code in ("ACDEFG", "HJKMNP"):
        assert guesser.call("join", {"code": code})["error"]["status"] == 404
    assert client.get("/c/QRTWXY").status_code == 404
    res = client.get("/c/AAAAAA")
    assert res.status_code == 429
    assert int(res.headers["Retry-After"]) > 0
    assert "Too many" in res.get_json()["error"]["message"]
    ack = guesser.call("join", {"code": "ACDEFG"})
    assert ack["error"]["status"] == 429 and ack["error"]["retry_after"] > 0
    assert client.get("/api/classes/ACDEFG").status_code == 429
    guesser.close()


def test_a_halls_typos_lock_no_one_with_the_right_code_out(make_app):
    """A hall behind one address (the campus's NAT): students typing the code off the
    projector make typos, or one hostile student sends wrong codes. Past the limit of
    misses every join from that address was refused (429), the right code and the QR
    code's page too: the rest of the hall could not join. A class this address is in
    already is still served; a code it has not joined stays refused (guessing stays
    slow)."""
    from tests.classes.conftest import FIG52, Conn  # noqa: PLC0415

    app = make_app(CLASS_JOIN_RATE="3/minute")
    client = app.test_client()
    made = [client.post("/api/classes", json={"tree": FIG52}).get_json() for _ in range(2)]
    first = Conn(app, client)
    assert first.call("join", {"code": made[0]["code"]})["ok"]
    hostile = Conn(app, client)
    for code in ("ACDEFG", "HJKMNP", "QRTWXY"):
        assert hostile.call("join", {"code": code})["error"]["status"] == 404
    assert hostile.call("join", {"code": "AAAAAA"})["error"]["status"] == 429
    late = Conn(app, client)                           # the rest of the hall, the right code
    assert late.call("join", {"code": made[0]["code"].lower()})["ok"]
    assert client.get(f"/c/{made[0]['code']}").status_code == 200      # the QR code's page
    assert client.get(f"/api/classes/{made[0]['code']}").status_code == 200
    other = Conn(app, client)                          # a class this address never joined
    assert other.call("join", {"code": made[1]["code"]})["error"]["status"] == 429
    assert client.get(f"/c/{made[1]['code']}").status_code == 429
    for c in (first, hostile, late, other):
        c.close()


def test_ending_the_class(conns, new_class, client):
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    s, _ = join(conns, cls)
    assert inst.call("end", {"code": code, "token": token})["state"]["ended"] == "instructor"
    assert s.received("state")[-1]["ended"] == "instructor"
    assert conns().call("join", {"code": code})["error"]["status"] == 410
    assert inst.call("step", {"code": code, "token": token, "step": 1})["error"]["status"] == 410
    page = client.get(f"/c/{code}")
    assert page.status_code == 410 and b'role="alert"' in page.data and b"ended" in page.data


def test_a_class_ends_after_its_idle_time(make_app):
    app = make_app(CLASS_IDLE_SECONDS=0.2)
    client = app.test_client()
    classes = app.extensions["classes"]
    cls = client.post("/api/classes", json={"tree": FIG52}).get_json()
    classes.clock = lambda: __import__("time").time() + 1          # an hour later, say
    assert classes.get(cls["code"])["ended"] == "idle"
    assert client.get(f"/c/{cls['code']}").status_code == 410
    ended = classes.sweep([cls["code"]])
    assert ended == []                                               # already ended, once


def test_sweeper_tells_students_the_class_ended(make_app):
    app = make_app(CLASS_IDLE_SECONDS=0.3, CLASS_SWEEP_SECONDS=0.1)
    # The classes' wall clock moved by hand: on a busy machine the join can
    # come later than the idle limit after the start, and the class would
    # end before a student is in it.
    now = [1_000_000.0]
    app.extensions["classes"].clock = lambda: now[0]
    client = app.test_client()
    from tests.classes.conftest import Conn  # noqa: PLC0415
    cls = client.post("/api/classes", json={"tree": FIG52}).get_json()
    s = Conn(app, client)
    assert s.call("join", {"code": cls["code"]})["ok"]
    now[0] += 1.0                                                  # idle past the limit
    import time  # noqa: PLC0415
    got: list[dict] = []
    deadline = time.time() + 30       # the sweeper's thread may wait for a core; it ends the wait
    while time.time() < deadline and not any(m["ended"] for m in got):
        time.sleep(0.1)
        got += s.received("state")
    assert [m["ended"] for m in got] == ["idle"]                     # told once, by the sweeper
    s.close()


def test_questions_refused_with_reasons(conns, new_class):
    cls = new_class(algorithm="minimax")
    inst = present(conns, cls)
    ack = inst.call("ask", {"code": cls["code"], "token": cls["instructor"], "kind": "pruned", "node": "C"})
    assert ack["ok"] is False and "alpha-beta" in ack["error"]["message"]
    ack = inst.call("ask", {"code": cls["code"], "token": cls["instructor"], "kind": "value", "node": "b1"})
    assert "leaf" in ack["error"]["message"]


def test_join_link_shows_the_lan_address_to_the_laptop(make_app):
    app = make_app(CLASS_LAN_URL="http://192.168.1.20:5000")
    client = app.test_client()
    cls = client.post("/api/classes", json={"tree": FIG52}).get_json()
    html = client.get(f"/c/{cls['code']}/present").get_data(as_text=True)
    assert f"http://192.168.1.20:5000/c/{cls['code']}" in html     # opened on the laptop itself
    html = client.get(f"/c/{cls['code']}/present",
                      headers={"Host": "localhost:5000"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/c/{cls['code']}" in html


def test_a_live_class_holds_its_uploaded_tree(app, client, conns, monkeypatch):
    """The class pins its upload in the store (holder ``class:<code>``) while
    it lives and lets go when it ends (issue 17: never evicted under a class)."""
    from tests.conftest import FIG_5_2

    up = client.post("/api/trees", data=FIG_5_2.encode(),
                     headers={"Content-Type": "application/x-yaml"}).get_json()
    store = app.extensions["trees"].store
    calls = []
    monkeypatch.setattr(store, "pin", lambda *a: calls.append(("pin", *a)) or True, raising=False)
    monkeypatch.setattr(store, "unpin", lambda *a: calls.append(("unpin", *a)) or 1, raising=False)
    cls = client.post("/api/classes", json={"tree": up["id"]}).get_json()
    holder = f"class:{cls['code']}"
    ttl = app.extensions["classes"].ttl
    assert calls == [("pin", up["id"], holder, ttl)]
    inst = present(conns, cls)
    assert calls[-1] == ("pin", up["id"], holder, ttl)              # renewed by the projector
    assert inst.call("end", {"code": cls["code"], "token": cls["instructor"]})["ok"]
    assert calls[-1] == ("unpin", holder, up["id"])


def test_both_instructor_views_read_once_are_the_views(app, conns, new_class):
    """The broadcast's two views, made from one read, are exactly the
    projector's and the second device's (before and after the reveal)."""
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    present(conns, cls)
    s, _ = join(conns, cls)
    service = app.extensions["classes"]
    service.clock = lambda: 1000.0                       # the countdown's "remaining" holds still
    q = service.ask(code, token, "value", "B", seconds=60)["question"]
    s.call("answer", {"code": code, "question": q["id"], "answer": "12"})
    for record in (service.get(code), service.reveal(code, token)):
        assert service.instructor_views(record) == (service.instructor(record),
                                                    service.instructor(record, live=True))
