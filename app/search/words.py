"""How the core says a sentence when nobody asks for another language.

Every sentence of the core is a message id: English with ``{named}`` fields.
A caller may pass ``words(msgid, **fields)`` that says it in another
language (``app.i18n.words``); without one, :func:`english` fills in the id.
"""
from __future__ import annotations


def english(msgid: str, **fields) -> str:
    """The message ``msgid`` with its fields, as written (English).

    >>> english("Leaf {node} has value {value}.", node="b1", value="3")
    'Leaf b1 has value 3.'
    """
    return msgid.format(**fields) if fields else msgid
