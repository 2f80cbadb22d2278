"""Grade files the LMS imports (contract §7b, issue 27 point 2), held to the
importers' own rules as their code reads them:

Moodle, grade/import/csv/classes/load_data.php (moodle/moodle, main):
  M1 each line's user column (here ``ID number``, mapped to ``useridnumber``)
     names an existing user: ``check_user_exists`` finds none -> the whole
     import is cleaned up ("usermappingerror"); a blank one leaves the
     student unmapped and "usermappingerrorusernotfound" aborts it all too;
  M2 a grade cell is trimmed; ``''`` or ``'-'`` is no grade; anything else
     must be a number (``unformat_float``), else the import aborts ("badgrade");
  M3 a grade above the maximum (100 by default, ``gradepointmax``) aborts it
     ("gradevaluetoobig"); a line with one field or none is skipped.

Canvas, app/models/gradebook_importer.rb (instructure/canvas-lms), which its
"How do I import grades in the Gradebook?" guide describes:
  C1 the header: column 1 holds "Student", column 2 "ID"; "SIS User ID" then
     "SIS Login ID" follow, and the last student column holds "Section"
     (``row_has_student_headers?``, ``update_column_count``);
  C2 a row's student is found by ``ID`` (the Canvas user id), else by
     ``SIS User ID``, else by ``SIS Login ID``, else by an exact name, else it
     is a student Canvas does not know (``missing_students``, not imported);
  C3 a blank grade or ``-`` is no score.
"""
from __future__ import annotations

import csv
import io
import time

import pytest

from tests.assignments.test_api import FIG52_RIGHT, _auth, _join, _make, _submit


class Aborted(Exception):
    pass


def moodle_import(text: str, idnumbers: dict[str, int]) -> dict[int, float | None]:
    """Moodle's CSV grade import mapped from ``ID number`` to ``useridnumber`` (M1-M3):
    user id -> grade (``None``: no grade); :class:`Aborted` where Moodle aborts."""
    lines = list(csv.reader(io.StringIO(text)))
    header = [h.strip() for h in lines[0]]
    who = header.index("ID number")
    grades: dict[int, float | None] = {}
    for line in lines[1:]:
        if len(line) <= 1:
            continue                                   # M3: no data on this line
        value = line[who].strip()
        if not value:
            raise Aborted("usermappingerrorusernotfound")      # M1
        if value not in idnumbers:
            raise Aborted(f"usermappingerror: idnumber {value!r}")   # M1
        cell = line[1 - who].strip()
        if cell in ("", "-"):
            grades[idnumbers[value]] = None                    # M2
            continue
        try:
            grade = float(cell)
        except ValueError:
            raise Aborted(f"badgrade {cell!r}") from None      # M2
        if grade > 100:
            raise Aborted("gradevaluetoobig")                  # M3
        grades[idnumbers[value]] = grade
    return grades


def canvas_import(text: str, students: list[dict]) -> tuple[dict[int, float | None], list[str]]:
    """Canvas's gradebook import (C1-C3) against the course's ``students``
    (``id``, ``name``, ``sis_user_id``, ``login_id``): Canvas id -> score, and the
    rows' names Canvas does not know."""
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    assert len(head) > 3 and "Student" in head[0] and "ID" in head[1]             # C1
    assert head[2] == "SIS User ID" and head[3] == "SIS Login ID" and "Section" in head[4]
    by_id = {str(s["id"]): s for s in students}
    by_sis = {s["sis_user_id"]: s for s in students if s.get("sis_user_id")}
    by_login = {s["login_id"]: s for s in students if s.get("login_id")}
    scores: dict[int, float | None] = {}
    unknown = []
    for row in rows[1:]:
        found = (by_id.get(row[1]) if row[1] else None) \
            or (by_sis.get(row[2]) if row[2] else None) \
            or (by_login.get(row[3]) if row[3] else None) \
            or next((s for s in students if s["name"] == row[0]), None)         # C2
        if found is None:
            unknown.append(row[0])
            continue
        cell = row[5].strip()
        scores[found["id"]] = None if cell in ("", "-") else float(cell)           # C3
    return scores, unknown


ROSTER = "name,id,login,section\nAna Lee,S1,ana@x.edu,A\nBudi Santoso,S2,budi@x.edu,A\n"
MOODLE_USERS = {"S1": 101, "S2": 102}          # Moodle's users: idnumber -> id
CANVAS_STUDENTS = [{"id": 11, "name": "Ana Lee", "sis_user_id": "S1", "login_id": "ana@x.edu"},
                   {"id": 12, "name": "Budi Santoso", "sis_user_id": "S2",
                    "login_id": "budi@x.edu"},
                   {"id": 13, "name": "Andi", "sis_user_id": None, "login_id": "andi@x.edu"}]


def _files(client, a):
    out = {}
    for fmt in ("moodle", "canvas"):
        r = client.get(f"/api/assignments/{a['id']}/grades.csv?format={fmt}", headers=_auth(a))
        assert r.status_code == 200
        out[fmt] = r.data.decode()
    return out


@pytest.mark.parametrize("due", ["future", "past"])
def test_grade_files_import_into_moodle_and_canvas_and_say_who_is_left_out(client, due):
    when = time.time() + 3600 if due == "future" else time.time() - 3600
    a = _make(client, due=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when)), late="mark")
    roster = client.post(f"/api/assignments/{a['id']}/roster", headers=_auth(a), data=ROSTER)
    assert roster.status_code == 201
    ana = {"X-Student-Token": roster.json["students"][0]["link"].split("#s=")[1]}
    assert _submit(client, a, ana, answers=FIG52_RIGHT).status_code == 200
    # A student who joined by typing a name, as a new user would: no id the LMS knows.
    typed = _join(client, a, "Andi Wijaya")
    assert _submit(client, a, typed, answers=FIG52_RIGHT).status_code == 200
    files = _files(client, a)

    moodle = moodle_import(files["moodle"], MOODLE_USERS)       # aborts on any unmatched row
    canvas, unknown = canvas_import(files["canvas"], CANVAS_STUDENTS)
    assert unknown == []
    assert moodle[101] == 100 and canvas[11] == 100               # Ana: right, kept in both
    # Budi has not tried: no grade before the due date (the LMS shows none yet), 0 after.
    assert moodle[102] == canvas[12] == (None if due == "future" else 0)
    assert 13 not in canvas                                       # Andi: left out of both

    results = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json
    for fmt in ("moodle", "canvas"):
        gone = results["exports"][fmt]
        assert gone["rows"] == 2
        assert [g["student"] for g in gone["left_out"]] == ["Andi Wijaya"]
        assert "typing a name" in gone["left_out"][0]["reason"]


def test_an_id_a_spreadsheet_would_change_is_left_out_with_its_reason(client):
    a = _make(client)
    r = client.post(f"/api/assignments/{a['id']}/roster", headers=_auth(a),
                    data="name,id\nEve,=1+2\nFai,F1\n")
    assert r.status_code == 201
    files = _files(client, a)
    assert moodle_import(files["moodle"], {"F1": 7}) == {7: None}
    gone = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a)).json["exports"]
    assert [(g["student"], "formula" in g["reason"]) for g in gone["moodle"]["left_out"]] == \
        [("Eve", True)]
    r = client.get(f"/api/assignments/{a['id']}/results", headers=_auth(a) | {
        "Accept-Language": "id"})
    assert r.json["exports"]["moodle"]["left_out"][0]["reason"] \
        != gone["moodle"]["left_out"][0]["reason"]
