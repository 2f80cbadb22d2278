"""YAML syntax errors in plain words, at the line to fix.

libyaml reports where it noticed a problem, which is often a line after the
mistake: a missing colon on line 2 is reported at line 3 as "could not find
expected ':'". These rules turn the common problems into a sentence a
student can act on, placed on the line to fix. A problem they do not know
keeps libyaml's own words (see ``yaml_reader._syntax_error``).

>>> err = plain_syntax_error("could not find expected ':'", "while scanning a simple key",
...                          (3, 11), (2, 1), "title: x\\nroot\\n  children: [1, 2]\\n")
>>> err.line, err.column, err.message
(2, 5, 'A colon is missing on line 2: write “root:”.')
"""
from __future__ import annotations

import re

from .errors import TreeFileError, file_error

_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _lines(text: str) -> list[str]:
    return _BREAK.split(text)


def _missing_colon(lines: list[str], line: int) -> TreeFileError | None:
    """Line ``line`` (1-based) holds a key without its colon: say so, and
    how to write it ("id A" -> "id: A", "root" -> "root:")."""
    if not 1 <= line <= len(lines):
        return None
    raw = lines[line - 1]
    body = raw.strip()
    if not body or body.startswith("#") or ":" in body:
        return None
    lead = len(raw) - len(raw.lstrip())
    item = body.startswith("- ")
    if item:
        body, lead = body[2:].lstrip(), lead + 2
    key, _, rest = body.partition(" ")
    fixed = f"{key}: {rest.strip()}" if rest.strip() else f"{key}:"
    return file_error("A colon is missing on line {line}: write “{fixed}”.", line,
                      lead + len(key) + 1, fixed=fixed)


def _previous(lines: list[str], line: int) -> int | None:
    """The nearest line above ``line`` that holds something."""
    for n in range(line - 1, 0, -1):
        body = lines[n - 1].strip()
        if body and not body.startswith("#"):
            return n
    return None


def plain_syntax_error(problem: str, context: str | None, mark: tuple[int, int],
                       context_mark: tuple[int, int] | None, text: str) -> TreeFileError | None:
    """The error for libyaml's ``problem`` (noticed at ``mark``, in
    ``context`` that started at ``context_mark``), or None if no rule knows it."""
    lines = _lines(text)
    line, col = mark
    start = context_mark[0] if context_mark else None
    context = context or ""
    if "could not find expected ':'" in problem and start is not None:
        return _missing_colon(lines, start) or file_error(
            "A colon is missing on line {line}: every key needs one, as in “id: A”.", start, 1)
    if "mapping values are not allowed" in problem:
        above = _previous(lines, line)
        if above is not None:
            err = _missing_colon(lines, above)
            if err is not None:
                return err
            indent = lambda n: len(lines[n - 1]) - len(lines[n - 1].lstrip())  # noqa: E731
            if line <= len(lines) and indent(line) > indent(above):
                return file_error("Line {line} is indented more than line {above}: the keys of "
                                  "one node start in the same column.", line,
                                  indent(line) + 1, above=above)
        return file_error("Line {line} has a second colon where YAML does not expect one: put "
                          "a text that holds a colon in quotes.", line, col)
    if "cannot start any token" in problem and line <= len(lines) and "\t" in lines[line - 1]:
        return file_error("Line {line} is indented with a tab: indent with spaces, not tabs.",
                          line, 1)
    if "did not find expected key" in problem or "expected <block end>" in problem:
        return file_error("Line {line} does not line up with the lines above it: the items of "
                          "one list, and the keys of one node, start in the same column.",
                          line, col)
    # Something opened and never closed: the line to fix is the one it was
    # opened on, at its end (where the closing mark is missing), unless the
    # parser noticed on that same line.
    unclosed = (start, len(lines[start - 1].rstrip()) + 1) if start and start <= len(lines) else None
    if unclosed and line == start:
        unclosed = (line, col)
    if "did not find expected ',' or ']'" in problem and unclosed:
        return file_error("The list opened with “[” on line {start} is not closed, or a comma "
                          "is missing between two of its items.", *unclosed, start=start)
    if "did not find expected ',' or '}'" in problem and unclosed:
        return file_error("The “{{” opened on line {start} is not closed, or a comma is missing "
                          "between two of its entries.", *unclosed, start=start)
    if "end of stream" in problem and "quoted scalar" in context and unclosed:
        return file_error("The quote opened on line {start} is never closed.", *unclosed,
                          start=start)
    return None
