"""Contract §7 over HTTP (Flask's test client, SQLite store): creating,
the instructor's token on every request, each student's own trees, grading
by practice's key under each feedback setting, due dates, rosters, exports."""
from __future__ import annotations

import csv
import io
import time

import pytest

from app.assignments.exercises import exercises_for, student_key
from app.assignments.spec import read_spec

FIG52_RIGHT = {"values": {"A": 3, "B": 3, "C": 2, "D": 2},
               "alpha": {"A": 3, "B": "-inf", "C": 3, "D": 3},
               "beta": {"A": "inf", "B": 3, "C": "inf", "D": 5}, "pruned": ["c2", "c3"]}


def _make(client, **spec):
    body = {"title": "Alpha-beta HW", "exercises": [{"tree": "aima-fig-5-2", "mode": "full"}],
            **spec}
    r = client.post("/api/assignments", json=body)
    assert r.status_code == 201, r.json
    return r.json


def _auth(a):
    return {"Authorization": f"Bearer {a['instructor']}"}


def _join(client, a, name):
    r = client.post(f"/api/assignments/{a['id']}/students", json={"student": name})
    assert r.status_code == 201, r.json
    return {"X-Student-Token": r.json["token"]}


def _submit(client, a, s, index=0, answers=None, **extra):
    return client.post(f"/api/assignments/{a['id']}/me/exercises/{index}", headers=s,
                       json={"answers": answers or {}, **extra})


def test_create_answers_as_the_contract_says_and_checks_the_token_every_time(client):
    a = _make(client, exercises=[{"tree": "random", "mode": "cuts", "branching": 2, "depth": 3},
                                 {"tree": "aima-fig-5-2", "mode": "values"}])
    assert a["student"] == f"/a/{a['id']}" and len(a["instructor"]) >= 24
    url = f"/api/assignments/{a['id']}/students/S123/exercises"
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    wrong = client.get(url, headers={"Authorization": "Bearer nope"}).json
    assert set(wrong) == {"error"} and "tree" not in str(wrong)
    first = client.get(url, headers=_auth(a)).json
    assert first == client.get(url, headers=_auth(a)).json            # the same on every request
    assert [e["mode"] for e in first] == ["cuts", "values"]
    assert first[1]["tree"] == "aima-fig-5-2" and first[0]["tree"].startswith("r-b2-d3-s")
    for e in first:
        assert client.get(f"/api/trees/{e['tree']}").status_code == 200
    other = client.get(f"/api/assignments/{a['id']}/students/S124/exercises", headers=_auth(a)).json
    assert other[0]["tree"] != first[0]["tree"]
    # another assignment's token opens nothing here
    b = _make(client)
    assert client.get(url, headers=_auth(b)).status_code == 403
    for path in ("results", "grades.csv?format=canvas"):
        assert client.get(f"/api/assignments/{a['id']}/{path}").status_code == 401


@pytest.mark.parametrize("body, argument", [
    ({"exercises": []}, "exercises"),
    ({"exercises": [{"tree": "nope", "mode": "full"}]}, "exercises[0].tree"),
    ({"exercises": [{"tree": "random", "mode": "cut"}]}, "exercises[0].mode"),
    ({"exercises": [{"tree": "random", "depth": 9}]}, "exercises[0].depth"),
    ({"exercises": [{"tree": "random"}], "feedback": "due"}, "due"),
    ({"exercises": [{"tree": "random"}], "due": "tomorrow"}, "due"),
    ({"exercises": [{"tree": "random"}], "attempts": 0}, "attempts"),
    ({"exercises": [{"tree": "random"}], "colour": 1}, "colour"),
    ({"exercises": [{"tree": "itb-three-player", "mode": "cuts"}]}, "exercises[0].mode"),
])
def test_a_bad_assignment_is_refused_naming_the_field(client, body, argument):
    r = client.post("/api/assignments", json=body)
    assert r.status_code == 400
    assert r.json["error"]["argument"] == argument and r.json["error"]["message"]


def test_a_thousand_students_get_distinct_exercise_sets():
    spec = read_spec({"exercises": [{"tree": "random", "mode": "cuts", "branching": 2,
                                     "depth": 3}, {"tree": "aima-fig-5-2", "mode": "full"}]})
    from app.games.random_tree import RandomSpec, random_tree

    sets = set()
    for n in range(1000):
        ex = exercises_for(spec, "the assignment's secret", student_key(f"S{n:05d}"))
        spec0 = RandomSpec.from_id(ex[0]["tree"])
        tree = random_tree(branching=spec0.branching, depth=spec0.depth, values=spec0.values,
                           seed=spec0.seed)
        sets.add(tuple(leaf.value for leaf in tree.leaves))    # the trees themselves, not ids
    assert len(sets) >= 990


def _roster_student(client, a, name):
    """A student from the instructor's roster (a known identity, not a typed name)."""
    r = client.post(f"/api/assignments/{a['id']}/roster", data=f"name\n{name}\n",
                    headers=_auth(a))
    assert r.status_code == 201, r.json
    return {"X-Student-Token": r.json["students"][0]["link"].split("#s=")[1]}


def test_feedback_at_submission_shows_the_score_not_the_key_until_attempts_are_used(client):
    a = _make(client, attempts=2, feedback="submit")
    ana = _roster_student(client, a, "Ana Lee")
    r = _submit(client, a, ana, answers={"values": {"A": 3, "B": 12}, "pruned": ["c2"]})
    assert r.status_code == 200 and r.json["attempt"] == 1 and r.json["attempts_left"] == 1
    assert r.json["score"]["total"] == 14 and 0 < r.json["score"]["right"] < 14
    text = str(r.json)
    assert "expected" not in text and "sentence" not in text and "/t/" not in text
    assert "c3" not in text                      # a missed cut would name the key
    assert _submit(client, a, ana, reveal=True).status_code == 403
    r = _submit(client, a, ana, answers=FIG52_RIGHT)
    assert r.json["score"] == {"right": 14, "total": 14} and r.json["attempts_left"] == 0
    assert _submit(client, a, ana, answers=FIG52_RIGHT).status_code == 409
    key = _submit(client, a, ana, reveal=True)
    assert key.status_code == 200 and any("expected" in e for e in key.json["entries"])
    me = client.get(f"/api/assignments/{a['id']}/me", headers=ana).json
    assert me["percent"] == 100 and me["exercises"][0]["used"] == 2


def test_an_alias_never_gets_the_key_of_a_tree_every_student_shares(client):
    """Issue 25 (4): an alias typed in the name form used up its attempts on the
    lecture tree, got the key, and the real student then scored 14/14."""
    a = _make(client, attempts=1, feedback="submit",
              exercises=[{"tree": "aima-fig-5-2", "mode": "full"},
                         {"tree": "random", "mode": "cuts"}])
    alias = _join(client, a, "not really me")
    assert _submit(client, a, alias, answers={"pruned": []}).status_code == 200
    refused = _submit(client, a, alias, reveal=True)
    assert refused.status_code == 403 and "due date" in refused.json["error"]["message"]
    me = client.get(f"/api/assignments/{a['id']}/me", headers=alias).json
    assert me["exercises"][0]["key_allowed"] is False
    # its own random tree is its alone: that key tells no one else anything
    assert _submit(client, a, alias, 1, answers={"pruned": []}).status_code == 200
    assert _submit(client, a, alias, 1, reveal=True).status_code == 200
    # the real student, known by the roster, gets the shared key once their attempts are used
    real = _roster_student(client, a, "Ana Lee")
    assert _submit(client, a, real, reveal=True).status_code == 403
    assert _submit(client, a, real, answers={"pruned": []}).status_code == 200
    assert _submit(client, a, real, reveal=True).status_code == 200


def test_the_name_form_refuses_an_internal_key(client):
    a = _make(client)
    squat = client.post(f"/api/assignments/{a['id']}/students",
                        json={"student": "lti:" + "0123456789abcdef" * 2})
    assert squat.status_code == 400 and squat.json["error"]["argument"] == "student"
    assert "reserved" in squat.json["error"]["message"]
    indo = client.post(f"/api/assignments/{a['id']}/students?lang=id",
                       json={"student": " LTI:ABCDEF0123456789 "},
                       headers={"Accept-Language": "id"})
    assert indo.status_code == 400 and "reserved" not in indo.json["error"]["message"]
    assert _join(client, a, "Lti Ana")      # a name is still a name


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def test_a_name_typed_as_decomposed_hangul_is_kept_within_its_column(make_app, tmp_path,
                                                                     request, db):
    """A typed name is checked by its normalised key (at most 100 characters) but was kept
    as typed: Hangul sent as conjoining jamo (three characters a syllable) makes a key of
    100 from 300 characters, past the name's column (200): PostgreSQL refused it with a
    500. It is kept composed (NFC), as it reads."""
    url = (f"sqlite:///{tmp_path}/names.sqlite3" if db == "sqlite"
           else request.getfixturevalue("pg_url"))
    app = make_app(DATABASE_URL=url)
    client = app.test_client()
    a = _make(client)
    r = client.post(f"/api/assignments/{a['id']}/students",
                    json={"student": "\u1100\u1161\u11a8" * 100})
    assert r.status_code == 201, r.data[:200]
    assert r.json["student"] == "\uac01" * 100
    app.extensions["results_db"].dispose()



@pytest.mark.parametrize("identities, roster_ok", [("roster", True), ("lms", False)])
def test_an_assignment_can_take_only_roster_or_only_lms_identities(client, identities, roster_ok):
    a = _make(client, identities=identities)
    r = client.post(f"/api/assignments/{a['id']}/students", json={"student": "Ana"})
    assert r.status_code == 403 and r.json["error"]["message"]
    r = client.post(f"/api/assignments/{a['id']}/roster", data="name\nAna\n", headers=_auth(a))
    assert (r.status_code == 201) is roster_ok, r.json
    assert client.get(f"/api/assignments/{a['id']}").json["identities"] == identities
    bad = client.post("/api/assignments", json={"exercises": [{"tree": "random"}],
                                                "identities": "anyone"})
    assert bad.status_code == 400 and bad.json["error"]["argument"] == "identities"


def test_feedback_per_step_explains_the_first_mistake_without_the_visualizer(client):
    a = _make(client, feedback="step", attempts=None)
    ben = _join(client, a, "Ben")
    r = _submit(client, a, ben, answers={"values": {"A": 3, "B": 12}})
    assert r.json["first_mistake"]["node"] == "B" and r.json["first_mistake"]["sentence"]
    assert "link" not in r.json and "link" not in r.json["first_mistake"]
    assert r.json["attempts_left"] is None


def test_feedback_after_due_date_and_late_work(client):
    future = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    a = _make(client, feedback="due", due=future)
    cy = _join(client, a, "Cy")
    r = _submit(client, a, cy, answers=FIG52_RIGHT)
    assert r.json["received"] is True and "score" not in r.json
    assert "percent" not in client.get(f"/api/assignments/{a['id']}/me", headers=cy).json
    past = "2020-01-01T00:00:00Z"
    closed = _make(client, due=past)
    r = _submit(client, closed, _join(client, closed, "Cy"), answers=FIG52_RIGHT)
    assert r.status_code == 410 and r.json["error"]["message"]
    marked = _make(client, due=past, late="mark")
    r = _submit(client, marked, _join(client, marked, "Cy"), answers=FIG52_RIGHT)
    assert r.status_code == 200 and r.json["late"] is True
    assert "expected" in str(r.json)              # past the due date, the key is allowed
    rows = client.get(f"/api/assignments/{marked['id']}/results", headers=_auth(marked)).json
    assert rows["students"][0]["late"] is True


def test_students_see_only_their_own_work(client):
    a = _make(client, exercises=[{"tree": "random", "mode": "cuts"}])
    ana, ben = _join(client, a, "Ana"), _join(client, a, "Ben")
    _submit(client, a, ana, answers={"pruned": []})
    me_b = client.get(f"/api/assignments/{a['id']}/me", headers=ben).json
    assert me_b["student"] == "Ben" and me_b["exercises"][0]["used"] == 0
    trees = {client.get(f"/api/assignments/{a['id']}/me", headers=h).json["exercises"][0]["tree"]
             for h in (ana, ben)}
    assert len(trees) == 2
    assert client.post(f"/api/assignments/{a['id']}/students", json={"student": " ana "}).status_code == 409
    assert client.get(f"/api/assignments/{a['id']}/me").status_code == 401
    assert client.get(f"/api/assignments/{a['id']}/me",
                      headers={"X-Student-Token": "x" * 24}).status_code == 401
    assert client.get(f"/api/assignments/{a['id']}/results", headers=ana).status_code == 401


def test_guessing_links_is_rate_limited(make_app):
    app = make_app(ASSIGNMENT_BUDGET={"guesses_per_minute": "3/minute"})
    client = app.test_client()
    codes = [client.get(f"/api/assignments/nope{i}").status_code for i in range(5)]
    assert codes[:3] == [404] * 3 and codes[3:] == [429, 429]
    r = client.get("/api/assignments/nope9")
    assert int(r.headers["Retry-After"]) > 0 and r.json["error"]["message"]


def test_one_guesser_behind_a_shared_address_locks_no_one_with_a_link_out(make_app):
    """Issue 25 (3): 21 misses from one address and every request from it got 429,
    valid student tokens and the instructor's /results included."""
    app = make_app(ASSIGNMENT_BUDGET={"guesses_per_minute": "3/minute"})
    client = app.test_client()         # the whole hall: one address
    a = _make(client)
    ana = _join(client, a, "Ana")
    for i in range(6):                 # the hostile student guesses ids
        client.get(f"/api/assignments/nope{i}")
    assert client.get("/api/assignments/nope9").status_code == 429   # guessing stays slow
    # wrong tokens count too, and are refused as guesses
    assert client.get(f"/api/assignments/{a['id']}/me",
                      headers={"X-Student-Token": "x" * 24}).status_code == 429
    assert client.get(f"/api/assignments/{a['id']}/results",
                      headers={"Authorization": "Bearer wrong"}).status_code == 429
    # a locked address learns nothing from an id without a token: same answer as a miss
    assert client.get(f"/api/assignments/{a['id']}").status_code == 429
    # every request carrying a valid token is served
    assert client.get(f"/api/assignments/{a['id']}/me", headers=ana).status_code == 200
    assert _submit(client, a, ana, answers=FIG52_RIGHT).status_code == 200
    assert client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).status_code == 200
    assert client.get(f"/api/assignments/{a['id']}/grades.csv",
                      headers=_auth(a)).status_code == 200
    # another address is not touched by this one's misses
    other = client.get(f"/api/assignments/{a['id']}", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200


def test_roster_gives_personal_links_and_bad_rows_are_named(client):
    a = _make(client)
    url = f"/api/assignments/{a['id']}/roster"
    bad = client.post(url, data="name,id,section\nAna,S1,A\nBen,,B,extra\n", headers=_auth(a))
    assert bad.status_code == 400 and "Row 3" in bad.json["error"]["message"]
    dup = client.post(url, data="name,id\nAna,S1\nAnn,s1\n", headers=_auth(a))
    assert "Row 3, column sis_id" in dup.json["error"]["message"]
    empty = client.post(url, data="Name,ID\n ,S9\n", headers=_auth(a))
    assert "Row 2, column name" in empty.json["error"]["message"]
    assert client.post(url, data="name\nAna\n").status_code == 401
    r = client.post(url, data="\ufeffName,Student number,Section\nAna Lee,S1,A\nBen Ong,S2,B\n",
                    headers=_auth(a))
    assert r.status_code == 201 and [s["id"] for s in r.json["students"]] == ["S1", "S2"]
    token = r.json["students"][0]["link"].split("#s=")[1]
    me = client.get(f"/api/assignments/{a['id']}/me", headers={"X-Student-Token": token}).json
    assert me["student"] == "Ana Lee"
    # the roster's identity is the student number: the instructor's view matches it
    ex = client.get(f"/api/assignments/{a['id']}/students/S1/exercises", headers=_auth(a)).json
    assert ex == [{k: v for k, v in e.items() if k not in ("used", "attempts_left", "key_allowed",
                                                           "score")} for e in me["exercises"]]


def test_the_roster_again_with_a_late_enrolee_adds_them_and_keeps_every_link(client):
    """Week 3: a student joins the course late, and the lecturer uploads the class list
    again with them. The whole file was refused (409: "Ana Lee has already started this
    assignment: use your personal link, or ask your instructor for it", said to the
    instructor); now the new student gets a link, those on the roster already keep theirs
    and their work, and the answer says how many were there. A row whose student typed
    that name in the form stays refused."""
    a = _make(client)
    url = f"/api/assignments/{a['id']}/roster"
    first = client.post(url, data="name,id\nAna Lee,S1\nBudi Santoso,S2\n", headers=_auth(a))
    ana = {"X-Student-Token": first.json["students"][0]["link"].split("#s=")[1]}
    assert _submit(client, a, ana, answers=FIG52_RIGHT).status_code == 200
    again = client.post(url, data="name,id\nAna Lee,S1\nBudi Santoso,S2\nCitra Dewi,S3\n",
                        headers=_auth(a))
    assert again.status_code == 201, again.json
    assert [(s["name"], s["id"]) for s in again.json["students"]] == [("Citra Dewi", "S3")]
    assert again.json["kept"] == 2
    me = client.get(f"/api/assignments/{a['id']}/me", headers=ana).json
    assert (me["student"], me["percent"]) == ("Ana Lee", 100)
    same = client.post(url, data="name,id\nAna Lee,S1\n", headers=_auth(a))
    assert same.status_code == 201 and (same.json["students"], same.json["kept"]) == ([], 1)
    results = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    assert sorted(s["student"] for s in results["students"]) == [
        "Ana Lee", "Budi Santoso", "Citra Dewi"]
    _join(client, a, "S4")                       # typed in the form: not the roster's to take
    typed = client.post(url, data="name,id\nDewi Lestari,S4\n", headers=_auth(a))
    assert typed.status_code == 409


def test_the_official_list_with_ids_fills_in_a_names_only_roster(client):
    """Week 1 the lecturer uploads names only and hands out the links; week 4 the
    university's list with NIMs. The keys changed (the name's, then the id's), so everyone
    was added again: the dashboard showed each student twice and the gradebook had
    duplicates without ids, while the students worked under the old entries. A row with an
    id whose name (as normalised) is one id-less roster student's takes that student: the
    id, login and section filled in, their link and work kept."""
    a = _make(client, exercises=[{"tree": "aima-fig-5-2", "mode": "full"},
                                 {"tree": "random", "mode": "cuts"}])     # trees by key
    url = f"/api/assignments/{a['id']}/roster"
    first = client.post(url, data="name\nAna Lee\nBudi Santoso\n", headers=_auth(a))
    assert first.status_code == 201, first.json
    ana = {"X-Student-Token": first.json["students"][0]["link"].split("#s=")[1]}
    assert _submit(client, a, ana, answers=FIG52_RIGHT).status_code == 200
    was = client.get(f"/api/assignments/{a['id']}/me", headers=ana).json
    _join(client, a, "Citra Dewi")     # typed her own name: never the roster's to take
    official = client.post(url, headers=_auth(a), data=(
        "Nama,NIM,Email,Kelas\nana  LEE,S1,ana@x.ac.id,A\nBudi Santoso,S2,,B\n"
        "Citra Dewi,S3,,A\nDewi Lestari,S4,,B\n"))
    assert official.status_code == 201, official.json
    assert sorted((s["name"], s["id"]) for s in official.json["students"]) == [
        ("Citra Dewi", "S3"), ("Dewi Lestari", "S4")]
    assert official.json["kept"] == 2
    me = client.get(f"/api/assignments/{a['id']}/me", headers=ana).json
    assert me == was and me["percent"] > 0             # the old link, her trees and work
    rows = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json["students"]
    assert sorted((s["student"], s["sis_id"] or "", s["login"], s["section"]) for s in rows) == [
        ("Ana Lee", "S1", "ana@x.ac.id", "A"), ("Budi Santoso", "S2", None, "B"),
        ("Citra Dewi", "", None, None), ("Citra Dewi", "S3", None, "A"),
        ("Dewi Lestari", "S4", None, "B")]
    # the lecturer looks her up by her NIM now: her own trees and attempt, not another's
    by_id = client.get(f"/api/assignments/{a['id']}/students/s1/attempts", headers=_auth(a))
    assert by_id.status_code == 200 and by_id.json["student"] == "Ana Lee"
    assert len(by_id.json["attempts"]) == 1
    ex = client.get(f"/api/assignments/{a['id']}/students/S1/exercises", headers=_auth(a)).json
    assert [e["tree"] for e in ex] == [e["tree"] for e in me["exercises"]]
    moodle = client.get(f"/api/assignments/{a['id']}/grades.csv?format=moodle", headers=_auth(a))
    ids = [r[0] for r in csv.reader(io.StringIO(moodle.get_data(as_text=True)))][1:]
    assert sorted(ids) == ["S1", "S2", "S3", "S4"]
    # the list once more: every id is there already, whatever the key
    again = client.post(url, headers=_auth(a), data="name,id\nAna Lee,S1\nBudi Santoso,S2\n")
    assert again.status_code == 201 and (again.json["students"], again.json["kept"]) == ([], 2)


def test_an_official_list_naming_a_link_holder_twice_is_refused_unchanged(client):
    """Two students of the same name on the official list, and one name-only roster student
    of that name who has a link: whose link it is cannot be guessed. The whole upload is
    refused, naming the name, in the reader's language, and nothing changes."""
    a = _make(client)
    url = f"/api/assignments/{a['id']}/roster"
    client.post(url, data="name\nAna Lee\nBudi\n", headers=_auth(a))
    before = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    body = "name,id\nBudi,S2\nAna Lee,S1\nANA LEE,S7\nEka,S5\n"
    r = client.post(url, data=body, headers=_auth(a))
    assert r.status_code == 400, r.json
    said = r.json["error"]["message"]
    assert "Row 4" in said and "ANA LEE" in said and "more than one" in said
    di = client.post(url, data=body, headers=_auth(a) | {"Accept-Language": "id"})
    assert di.status_code == 400 and "lebih dari satu" in di.json["error"]["message"]
    assert client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json == before


def test_a_roster_saved_by_excel_in_indonesian_is_read(client):
    """Excel in an Indonesian locale (a decimal comma) saves "CSV" with semicolons, and a
    lecturer's list says Nama, NIM, Kelas: it was refused ("Row 1, column 1: unknown column
    'Nama;NIM;Email;Kelas'"). It is read as the same list, a comma in a name (an academic
    title) kept."""
    a = _make(client)
    r = client.post(f"/api/assignments/{a['id']}/roster", headers=_auth(a), data=(
        "\ufeffNama;NIM;Email;Kelas\r\nAna Lee;S1;ana@x.ac.id;A\r\n"
        "Budi Santoso, S.Kom.;S2;budi@x.ac.id;B\r\n").encode())
    assert r.status_code == 201, r.json
    assert [(s["name"], s["id"]) for s in r.json["students"]] == [
        ("Ana Lee", "S1"), ("Budi Santoso, S.Kom.", "S2")]
    rows = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json["students"]
    assert sorted((s["student"], s["login"], s["section"]) for s in rows) == [
        ("Ana Lee", "ana@x.ac.id", "A"), ("Budi Santoso, S.Kom.", "budi@x.ac.id", "B")]


def test_a_roster_of_column_names_only_is_refused_with_why(client):
    """The lecturer exports the wrong group from the university's system: only the header
    row. It was taken (201, no student) and the dashboard showed nothing at all; it is
    refused, saying that no student is in it, in the reader's language."""
    a = _make(client)
    url = f"/api/assignments/{a['id']}/roster"
    r = client.post(url, headers=_auth(a), data="Nama;NIM;Kelas\r\n;;\r\n")
    assert r.status_code == 400 and "no student" in r.json["error"]["message"]
    said = client.post(url, headers=_auth(a) | {"Accept-Language": "id"}, data="name,id\n")
    assert said.status_code == 400 and "mahasiswa" in said.json["error"]["message"]


def test_gradebook_exports_in_canvas_and_moodle_formats(client):
    a = _make(client, title="HW 1: α-β")
    client.post(f"/api/assignments/{a['id']}/roster", headers=_auth(a),
                data="name,id,login,section\nAna,S1,ana@x,A\n=cmd,S2,c@x,B\n")
    me = client.get(f"/api/assignments/{a['id']}/students/S1/exercises", headers=_auth(a))
    assert me.status_code == 200
    canvas = client.get(f"/api/assignments/{a['id']}/grades.csv?format=canvas", headers=_auth(a))
    assert canvas.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(canvas.data.decode())))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "HW 1: α-β"]
    assert {r[2] for r in rows[1:]} == {"S1", "S2"} and "'=cmd" in {r[0] for r in rows[1:]}
    moodle = client.get(f"/api/assignments/{a['id']}/grades.csv?format=moodle", headers=_auth(a))
    rows = list(csv.reader(io.StringIO(moodle.data.decode())))
    assert rows[0] == ["ID number", "HW 1: α-β"]
    assert [r[1] for r in rows[1:]] == ["", ""]     # no attempt, no due date passed: no grade yet
    assert client.get(f"/api/assignments/{a['id']}/grades.csv?format=xls",
                      headers=_auth(a)).status_code == 400


def test_an_uploaded_tree_outlives_the_upload_store(make_app, fig52_yaml):
    app = make_app(BUDGET={"store_trees": 1})
    client = app.test_client()
    tree_id = client.post("/api/trees", data=fig52_yaml.replace("Figure 5.2", "Fig"),
                          content_type="application/x-yaml").json["id"]
    a = _make(client, exercises=[{"tree": tree_id, "mode": "cuts"}])
    client.post("/api/trees", data="title: other\nroot: {children: [1, 2]}\n",
                content_type="application/x-yaml")          # evicts the first upload
    client = make_app(BUDGET={"store_trees": 1}).test_client()   # restarted: nothing cached
    assert client.get(f"/api/trees/{tree_id}").status_code == 404
    ex = client.get(f"/api/assignments/{a['id']}/students/Ana/exercises", headers=_auth(a)).json
    assert ex[0]["tree"] == tree_id
    assert client.get(f"/api/trees/{tree_id}").status_code == 200     # back, from its copy


def test_a_guided_walk_scores_each_question_once(client):
    a = _make(client, exercises=[{"tree": "aima-fig-5-2", "mode": "guided"}])
    s = _join(client, a, "Gus")
    url = f"/api/assignments/{a['id']}/me/exercises/0"
    assert client.post(url, headers=s, json={"index": 0, "reveal": True}).status_code == 403
    r = client.post(url, headers=s, json={"index": 0, "answer": "3"})
    assert r.json["result"]["correct"] is True and "link" not in r.json
    client.post(url, headers=s, json={"index": 1, "answer": "99"})
    again = client.post(url, headers=s, json={"index": 1, "answer": "12"})   # not scored again
    assert again.status_code == 200
    shown = client.post(url, headers=s, json={"index": 1, "reveal": True})
    assert shown.status_code == 200 and "answer" in shown.json
    res = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    total = r.json["total"]
    assert res["students"][0]["exercises"][0] == {"score": round(1 / total, 4), "attempts": 2}


def test_a_guided_walk_with_nothing_to_ask_takes_no_made_up_question(client):
    """A guided exercise on an uploaded tree of one leaf has nothing to ask, and practice's
    guide then read no question index at all: a student's index of -3 was stored as
    attempt -2, one of 2**70 was a 500 (past the database's integer)."""
    up = client.post("/api/trees", data="title: One leaf\nroot:\n  id: A\n  value: 3\n",
                     headers={"Content-Type": "application/x-yaml"})
    assert up.status_code == 201
    a = _make(client, exercises=[{"tree": up.json["id"], "mode": "guided"}])
    s = _join(client, a, "Hostile")
    url = f"/api/assignments/{a['id']}/me/exercises/0"
    first = client.post(url, headers=s, json={"index": 0, "answer": "3"})
    assert first.status_code == 200 and first.json["finished"] is True
    for index in (-3, 2 ** 70, 1):
        r = client.post(url, headers=s, json={"index": index, "answer": "3"})
        assert r.status_code == 400 and r.json["error"]["message"], index
    attempts = client.get(f"/api/assignments/{a['id']}/students/Hostile/attempts",
                          headers=_auth(a)).json["attempts"]
    assert [x["attempt"] for x in attempts] == [1]


def test_dashboard_figures(client):
    a = _make(client, attempts=None)
    for name, answers in (("A", FIG52_RIGHT), ("B", {"pruned": ["c2"]}), ("C", {"pruned": ["c2"]})):
        _submit(client, a, _join(client, a, name), answers=answers)
    r = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    ex = r["exercises"][0]
    assert ex["students"] == 3 and ex["share_right"] == round(1 / 3, 4)
    # (in English, and its parts for the dashboard to say in its language: issue 26)
    assert {"what": "cut c3 missed", "count": 2, "mistake": "missed", "node": "c3"} in ex["wrong"]
    assert [s["percent"] for s in r["students"]][0] == 100


def test_answers_no_strict_json_holds_are_graded_and_stored_not_a_500(client):
    a = _make(client, attempts=None)
    s = _join(client, a, "Ina")
    for body in (b'{"answers": {"values": {"A": Infinity, "B": NaN, "C": 1e400}}}',
                 b'{"answers": {"values": {"A": [1, [2, [3]]]}}}'):
        r = client.post(f"/api/assignments/{a['id']}/me/exercises/0", headers=s, data=body,
                        content_type="application/json")
        assert r.status_code in (200, 400) and r.is_json, r.data
    res = client.get(f"/api/assignments/{a['id']}/students/Ina/attempts", headers=_auth(a))
    assert res.status_code == 200 and res.json["attempts"][0]["answers"]["answers"]["values"]["A"] == "inf"


def test_a_star1_exercise_is_graded_by_star1_on_trees_of_its_shape(client, app):
    """Issue 26: a random Star1 exercise got a tree without chance nodes or
    bounds, so practice graded alpha-beta. Its record's random shape now
    makes the tree; a fixed tree of the wrong shape is refused (400)."""
    from app.practice.checker import practice_options
    from app.assignments.exercises import options_of
    from app.assignments.spec import ExerciseSpec
    a = _make(client, exercises=[{"tree": "random", "mode": "cuts", "algorithm": "star1",
                                  "depth": 3}])
    s = _join(client, a, "ana")
    tree_id = client.get(f"/api/assignments/{a['id']}/me", headers=s).json["exercises"][0]["tree"]
    assert "-c-" in tree_id and "-l-" in tree_id, tree_id
    with app.app_context():
        tree = app.extensions["trees"].get(tree_id)
    assert tree.has_chance and tree.bounds == (-10, 10)
    e = ExerciseSpec("random", "cuts", "star1")
    assert practice_options(tree, "cuts", options_of(e)).algorithm == "star1"
    r = client.post("/api/assignments", json={"exercises": [
        {"tree": "aima-fig-5-2", "mode": "cuts", "algorithm": "star1"}]})
    assert r.status_code == 400 and r.json["error"]["argument"] == "exercises[0].tree"
    assert "star1" in r.json["error"]["message"]


def test_a_name_form_answer_lost_on_the_way_is_got_again_by_the_same_device(client):
    """A phone's connection drops after the server stored the name but before its answer
    (the personal token) arrived: retyping the name was 409 (name taken) and the student
    was locked out. The page sends a random request key it kept before sending; the same
    name with the same key gets the student back (a fresh token replacing the lost one),
    another key (another person retyping the name) is still refused."""
    a = _make(client)
    url = f"/api/assignments/{a['id']}/students"
    key = "k7Qx-2mZ_p9LwV3rT8sY1a"
    lost = client.post(url, json={"student": "Ana Lee", "request": key})
    assert lost.status_code == 201, lost.json                # the answer never reaches the phone
    again = client.post(url, json={"student": "  ana  lee ", "request": key})
    assert again.status_code == 200, again.json
    assert again.json["student"] == "Ana Lee" and again.json["token"] != lost.json["token"]
    assert again.json["link"] == f"/a/{a['id']}#s={again.json['token']}"
    mine = {"X-Student-Token": again.json["token"]}
    assert client.get(f"/api/assignments/{a['id']}/me", headers=mine).json["student"] == "Ana Lee"
    gone = client.get(f"/api/assignments/{a['id']}/me",
                      headers={"X-Student-Token": lost.json["token"]})
    assert gone.status_code == 401                           # the lost token opens nothing
    assert _submit(client, a, mine, answers=FIG52_RIGHT).status_code == 200
    for other in ({"request": "another-device-key-0001"}, {}):   # another person: still 409
        taken = client.post(url, json={"student": "Ana Lee", **other})
        assert taken.status_code == 409 and taken.json["error"]["argument"] == "student"
    # a roster's student is never taken by a typed name, whatever key comes with it
    client.post(f"/api/assignments/{a['id']}/roster", data="name,id\nBudi,S2\n", headers=_auth(a))
    assert client.post(url, json={"student": "S2", "request": key}).status_code == 409
    results = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    assert [(s["student"], s["percent"]) for s in results["students"]] == [
        ("Ana Lee", 100), ("Budi", 0)]
    # the key is bounded and checked: never a 500, never stored as sent
    for bad in ("x" * 101, "short", 12, "spaces are not ok here!!", None):
        r = client.post(url, json={"student": "Citra", "request": bad})
        assert r.status_code == 400 and r.json["error"]["argument"] == "request", (bad, r.json)


def test_the_instructor_gives_a_student_who_lost_their_link_a_new_one(client, app):
    """A roster's personal links are shown once (only their hashes are kept): a student who
    lost theirs had no way back. The instructor makes a new one for them: the old link
    stops working, the work stays; no one else (a student's token, a guess) may."""
    a = _make(client)
    up = client.post(f"/api/assignments/{a['id']}/roster", headers=_auth(a),
                     data="name,id\nAna Lee,S1\nBudi,S2\n")
    old = {"X-Student-Token": up.json["students"][0]["link"].split("#s=")[1]}
    assert _submit(client, a, old, answers=FIG52_RIGHT).status_code == 200
    url = f"/api/assignments/{a['id']}/students/S1/link"
    r = client.post(url, headers=_auth(a))
    assert r.status_code == 200, r.json
    assert (r.json["student"], r.json["id"]) == ("Ana Lee", "S1")
    new = {"X-Student-Token": r.json["link"].split("#s=")[1]}
    assert r.json["link"].startswith(f"/a/{a['id']}#s=") and new != old
    assert client.get(f"/api/assignments/{a['id']}/me", headers=old).status_code == 401
    me = client.get(f"/api/assignments/{a['id']}/me", headers=new).json
    assert (me["student"], me["percent"]) == ("Ana Lee", 100)
    # a typed name's student too (the instructor vouches for them now): the new link is
    # the only way in, not the old device's request key either
    join = {"student": "Citra", "request": "citra-phone-key-000001"}
    typed = client.post(f"/api/assignments/{a['id']}/students", json=join).json
    r = client.post(f"/api/assignments/{a['id']}/students/Citra/link", headers=_auth(a))
    assert r.status_code == 200 and r.json["student"] == "Citra" and r.json["id"] is None
    assert client.get(f"/api/assignments/{a['id']}/me",
                      headers={"X-Student-Token": typed["token"]}).status_code == 401
    assert client.post(f"/api/assignments/{a['id']}/students", json=join).status_code == 409
    # a student of the LMS comes in by a launch: no link to make
    app.extensions["assignments"].add_students(a["id"], [
        {"key": "lti:abc", "name": "Dewi", "token_hash": "0" * 64, "origin": "lms"}], 10)
    r = client.post(f"/api/assignments/{a['id']}/students/lti:abc/link", headers=_auth(a))
    assert r.status_code == 409 and "LMS" in r.json["error"]["message"]
    # no one else: no key 401, a student's token 403, a guessed student or assignment 404
    assert client.post(url).status_code == 401
    for header in (new, {"Authorization": f"Bearer {new['X-Student-Token']}"}):
        r = client.post(url, headers=header)
        assert r.status_code in (401, 403) and set(r.json) == {"error"}, r.json
    r = client.post(url, headers={"Authorization": f"Bearer {new['X-Student-Token']}"})
    assert r.status_code == 403
    r = client.post(f"/api/assignments/{a['id']}/students/S9/link", headers=_auth(a))
    assert r.status_code == 404 and "S9" in r.json["error"]["message"]
    r = client.post(f"/api/assignments/nope{a['id']}/students/S1/link", headers=_auth(a))
    assert r.status_code == 404 and set(r.json) == {"error"}
    assert client.get(f"/api/assignments/{a['id']}/me", headers=new).status_code == 200


def test_the_last_student_to_fit_gets_their_lost_answer_again(make_app):
    """The assignment full with the student whose answer was lost: their retry was "full"
    (413), checked before "taken"; it gets them back too, and a newcomer is still refused."""
    app = make_app(ASSIGNMENT_BUDGET={"students_per_assignment": 1})
    client = app.test_client()
    a = _make(client)
    url = f"/api/assignments/{a['id']}/students"
    join = {"student": "Ana Lee", "request": "ana-phone-key-00000001"}
    assert client.post(url, json=join).status_code == 201
    again = client.post(url, json=join)
    assert again.status_code == 200 and again.json["student"] == "Ana Lee", again.json
    assert client.post(url, json={"student": "Budi", "request": "budi-phone-key-0000001"}
                       ).status_code == 413
