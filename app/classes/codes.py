"""Join codes, instructor tokens and student ids.

A join code is six characters from an alphabet without look-alikes (no 0/O,
1/I/L, 2/Z, 5/S, 8/B, U/V): read off a projector from the back row and typed
on a phone, it must not be mistaken. 23**6 is about 148 million codes, and
failed joins are rate-limited, so guessing a live class is hopeless.

>>> len(new_code()), set(new_code()) <= set(ALPHABET)
(6, True)
>>> normal_code(" acd-efg "), normal_code("ACDEF0")
('ACDEFG', None)
>>> check_token(new_token()[1], "not-it")
False
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
CODE_LENGTH = 6
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
_STUDENT = re.compile(r"[A-Za-z0-9_-]{16,40}")
TOKEN_MAX = 100
"""Longest instructor token read (ours are 32 characters)."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text) -> str | None:
    """The code as typed (any case, spaces or dashes between) or ``None`` if it
    cannot be one."""
    if not isinstance(text, str) or len(text) > 20:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if _CODE.fullmatch(code) else None


def new_token() -> tuple[str, str]:
    """A fresh instructor token and the hash that is stored (never the token)."""
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_token(stored_hash: str, token) -> bool:
    """Whether ``token`` is the instructor's (constant time)."""
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX:
        return False
    return hmac.compare_digest(stored_hash, token_hash(token))


def new_student() -> str:
    return secrets.token_urlsafe(15)


def valid_student(text) -> bool:
    return isinstance(text, str) and _STUDENT.fullmatch(text) is not None
