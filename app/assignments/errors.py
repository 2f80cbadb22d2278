"""The one refusal of the assignments' logic: a catalogue message and an HTTP status."""
from __future__ import annotations

from app.search.words import Said


class AssignmentError(Said, ValueError):
    """A request about an assignment refused: ``status`` (400 bad input, 403 not
    yours, 404 unknown, 409 used up or taken, 410 past due, 413 over budget,
    429 too often) and the sentence (``msgid`` + ``fields``, said by the web
    layer in the reader's language); ``argument`` names the field at fault."""

    def __init__(self, msgid: str, status: int = 400, argument: str | None = None,
                 retry_after: int | None = None, **fields):
        super().__init__(msgid, **fields)
        self.status = status
        self.argument = argument
        self.retry_after = retry_after
