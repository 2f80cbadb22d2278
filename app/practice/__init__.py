"""Practice: the student solves a tree by hand, the checker grades it.

Everything here is pure Python over the search core's events (see
:mod:`app.practice.key`): the answer key is read off one run of
:func:`app.search.run`, never recomputed. The web blueprint
(:mod:`app.web.practice`) and the tests call the same functions:

* :func:`check` -- values, cuts, or values + bounds + cuts (modes
  ``values``, ``cuts``, ``full``);
* :func:`guide` -- one question at a time (mode ``guided``);
* :func:`check_order` -- move ordering (mode ``order``).
"""
from __future__ import annotations

from .checker import MODES, PracticeError, check, practice_options, visualizer_link
from .guided import guide, questions
from .key import AnswerKey, answer_key
from .ordering import best_order, check_order, reorder

__all__ = ["check", "guide", "questions", "check_order", "reorder", "best_order",
           "answer_key", "AnswerKey", "practice_options", "visualizer_link",
           "PracticeError", "MODES"]
