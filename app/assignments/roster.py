"""A class list as CSV, turned into students with personal links.

The first row names the columns (any case): ``name`` (or ``student``), and
optionally ``id`` (``sis_id``, ``student number``, ``SIS User ID``),
``login`` (``username``, ``email``, ``SIS Login ID``) and ``section`` (or
in Indonesian: ``nama``, ``nim``, ``surel``, ``kelas``); commas between the
cells, or semicolons as Excel writes them where the decimal mark is a comma. A
student's identity, which seeds their trees, is their id where given, else
their name. A bad row refuses the whole file, naming its row and column.

>>> rows = read_roster("Name,Student number,Section\\nAna Lee,S1,A\\nBen Ong,S2,B\\n")
>>> [(r["name"], r["key"], r["section"]) for r in rows]
[('Ana Lee', 's1', 'A'), ('Ben Ong', 's2', 'B')]
>>> read_roster("name,id\\nAna,S1\\n,S2\\n")
Traceback (most recent call last):
app.assignments.errors.AssignmentError: Row 3, column name: the name is empty.
"""
from __future__ import annotations

import csv
import io

from app.treefile.errors import N_

from .errors import AssignmentError
from .exercises import student_key

HEADERS = {
    "name": "name", "student": "name", "student name": "name", "full name": "name",
    "id": "sis_id", "sis_id": "sis_id", "sis user id": "sis_id", "student number": "sis_id",
    "student id": "sis_id", "id number": "sis_id", "nim": "sis_id",
    "login": "login", "username": "login", "email": "login", "sis login id": "login",
    "section": "section",
    # An Indonesian lecturer's list (NIM: the student number)
    "nama": "name", "nama lengkap": "name", "nama mahasiswa": "name", "surel": "login",
    "kelas": "section",
}
MAX_FIELD = 100


def read_roster(text: str, max_rows: int = 1000) -> list[dict]:
    """``[{"name", "key", "sis_id", "login", "section"}]`` or :class:`AssignmentError`."""
    if text.startswith("\ufeff"):
        text = text[1:]                   # Excel's byte order mark
    # Excel where the decimal mark is a comma (Indonesia) saves "CSV" with semicolons.
    head = text.split("\n", 1)[0]
    delimiter = ";" if ";" in head and "," not in head else ","
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as exc:
        raise AssignmentError(N_("The roster is not CSV: {reason}"), reason=str(exc)) from exc
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise AssignmentError(N_("The roster is empty: the first row names the columns "
                                 "(name, id, login, section)."))
    columns = []
    for n, head in enumerate(rows[0], start=1):
        field = HEADERS.get(head.strip().casefold())
        if field is None:
            raise AssignmentError(N_("Row 1, column {column}: unknown column {name}; use name, "
                                     "id, login, section."), column=n, name=repr(head.strip()))
        if field in columns:
            raise AssignmentError(N_("Row 1, column {column}: {name} is named twice."),
                                  column=n, name=repr(head.strip()))
        columns.append(field)
    if "name" not in columns:
        raise AssignmentError(N_("Row 1: the roster needs a name column."))
    if len(rows) - 1 > max_rows:
        raise AssignmentError(N_("Too many students: {count}, the limit is {limit}."), 413,
                              count=len(rows) - 1, limit=max_rows)
    out, seen = [], {}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(columns):
            raise AssignmentError(N_("Row {row}: {count} cells, the first row names {columns}."),
                                  row=number, count=len(row), columns=len(columns))
        record = {f: (cell.strip() or None) for f, cell in zip(columns, row)}
        for f, cell in record.items():
            if cell is not None and len(cell) > MAX_FIELD:
                raise AssignmentError(N_("Row {row}, column {column}: longer than {n} "
                                         "characters."), row=number, column=f, n=MAX_FIELD)
        if not record.get("name"):
            raise AssignmentError(N_("Row {row}, column {column}: the name is empty."),
                                  row=number, column="name")
        column = "sis_id" if record.get("sis_id") else "name"
        try:
            key = student_key(record[column])
        except AssignmentError:
            raise AssignmentError(N_("Row {row}, column {column}: not a name or student "
                                     "number."), row=number, column=column) from None
        if key in seen:
            raise AssignmentError(N_("Row {row}, column {column}: the same student as row "
                                     "{other}."), row=number, column=column, other=seen[key])
        seen[key] = number
        out.append({"name": record["name"], "key": key, "sis_id": record.get("sis_id"),
                    "login": record.get("login"), "section": record.get("section")})
    if not out:
        raise AssignmentError(N_("The roster names no student: one row per student goes under "
                                 "the first row, which names the columns."))
    return out


def match_roster(rows: list[dict], have) -> tuple[list[dict], list[dict], int]:
    """The class list again against the students ``have`` (:class:`~.store.Student`):
    ``(new rows, fills, kept)``. A row whose key or id is a roster student's already keeps
    them (their link and work); a row with an id whose name is an id-less roster student's
    (the names-only list handed out first) gives that student its id, login and section
    (a fill: ``{"id", "sis_id", "login", "section"}``) instead of adding them twice.
    Typed names and LMS students are never taken. A name on two rows of the list while an
    id-less student has it is refused: whose link it is cannot be guessed."""
    roster = [st for st in have if st.origin == "roster"]
    listed = {st.key for st in roster} | {student_key(st.sis_id) for st in roster if st.sis_id}
    # An id-less roster student's key is their normalised name, and keys are unique in an
    # assignment: one name, at most one such student.
    unnamed = {st.key: st for st in roster if not st.sis_id}
    names, where = [], {}
    for n, r in enumerate(rows):
        try:
            names.append(student_key(r["name"]))
        except AssignmentError:           # a name that is no key (its id is): matches no one
            names.append(None)
        where.setdefault(names[-1], []).append(n)
    new, fills, kept = [], [], 0
    for number, (r, name) in enumerate(zip(rows, names), start=2):
        if r["key"] in listed:
            kept += 1
        elif r["sis_id"] and name in unnamed:
            twice = where[name]
            if len(twice) > 1:
                raise AssignmentError(N_("Row {row}: more than one student on the list is "
                                         "named {name} (row {other} too), and which of them "
                                         "already has a link cannot be told. Upload a list "
                                         "with only the row of the one who has it first, "
                                         "then the whole list."), row=twice[1] + 2,
                                      other=twice[0] + 2, name=rows[twice[1]]["name"])
            st = unnamed[name]
            fills.append({"id": st.id, "sis_id": r["sis_id"], "login": r["login"],
                          "section": r["section"]})
            kept += 1
        else:
            new.append(r)
    return new, fills, kept
