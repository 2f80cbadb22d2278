"""How the core says a sentence when nobody asks for another language.

Every sentence of the core is a message id: English with ``{named}`` fields.
A caller may pass ``words(msgid, **fields)`` that says it in another
language (``app.i18n.words``); without one, :func:`english` fills in the id.
"""
from __future__ import annotations

from string import Formatter


def english(msgid: str, **fields) -> str:
    """The message ``msgid`` with its fields, as written (English).

    >>> english("Leaf {node} has value {value}.", node="b1", value="3")
    'Leaf b1 has value 3.'
    """
    return msgid.format(**fields) if fields else msgid



def template(tell, msgid: str) -> tuple[str, tuple[int, ...]] | None:
    """``msgid`` as ``tell`` says it, made a ``%`` template once, so that a
    long stream fills it with ``template % values`` instead of a call with
    named fields each time (several times faster). Values come in the order
    the fields first appear in ``msgid``; the second item picks, for each
    ``%s`` of the template, which of them goes there (a translation may put
    the fields in another order, or one twice). None when ``tell`` does not
    put its fields in as they are.

    >>> template(english, "MAX at {node}: {new} = max({old}, {new})")
    ('MAX at %s: %s = max(%s, %s)', (0, 1, 2, 1))
    >>> template(english, "{a} and 100% {b}")
    ('%s and 100%% %s', (0, 1))
    >>> template(lambda m, **f: m.format(**{k: v.upper() for k, v in f.items()}), "{a}!")
    """
    names = list(dict.fromkeys(name for _, name, _, _ in Formatter().parse(msgid)
                               if name is not None))
    if not names:
        return None
    marked = tell(msgid, **{n: f"\x00{k}\x00" for k, n in enumerate(names)})
    pieces = marked.split("\x00")
    slots = pieces[1::2]
    if len(pieces) % 2 == 0 or any(not p.isdigit() or int(p) >= len(names) for p in slots):
        return None
    tpl = "".join("%s" if k % 2 else p.replace("%", "%%") for k, p in enumerate(pieces))
    order = tuple(int(p) for p in slots)
    sample = [f"<{n}%{{}}>" for n in names]   # a tell that changes its fields is found out here
    if tell(msgid, **dict(zip(names, sample))) != tpl % tuple(sample[k] for k in order):
        return None
    return tpl, order


class Said(Exception):
    """An error whose sentence is a catalogue message: ``msgid`` (English with
    ``{named}`` fields) and ``fields``; ``message`` (and ``str``) is the English.

    The layers above say it in the reader's language
    (``app.i18n.error_message``); the core knows no catalogue. Every refusal
    of the code that is said this way extends this class (the search's,
    the games', the classes', the renderer's, the store's), alone or beside
    ``ValueError``.

    >>> err = Said("The drawing is larger than {size} MiB.", size=4)
    >>> str(err), err.msgid, err.fields
    ('The drawing is larger than 4 MiB.', 'The drawing is larger than {size} MiB.', {'size': 4})
    """

    def __init__(self, msgid: str, **fields):
        self.msgid, self.fields = msgid, fields
        self.message = english(msgid, **fields)
        super().__init__(self.message)
