"""Misconceptions: what a wrong answer says about the student (contract §8).

* :mod:`.library` -- the misconceptions, one record each (id, words, wrong search);
* :mod:`.answers` -- sheets of values and cuts, read off raw events or a student's answer;
* :mod:`.diagnose` -- the matching rule and the sentence at the first node it departs.
"""
from __future__ import annotations

from .diagnose import diagnose, key_sheet, sheets
from .library import BY_ID, LIBRARY, applicable, name

__all__ = ["diagnose", "key_sheet", "sheets", "LIBRARY", "BY_ID", "applicable", "name"]
