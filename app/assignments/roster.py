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
