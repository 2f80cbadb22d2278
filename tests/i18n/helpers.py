"""What the i18n tests share: an upload refused in both languages."""
from __future__ import annotations


def upload_error(client, data: bytes, lang: str, ctype: str = "application/x-yaml") -> dict:
    """The ``error`` of a refused upload (a 400) asked for in ``lang``."""
    res = client.post(f"/api/trees?lang={lang}", data=data, headers={"Content-Type": ctype})
    assert res.status_code == 400
    return res.get_json()["error"]


def assert_refused_in_both(client, data: bytes, line: int, column: int, english: str,
                           indonesian: str, ctype: str = "application/x-yaml") -> None:
    """The upload is refused at ``line``:``column``, said in Indonesian and in English."""
    assert upload_error(client, data, "id", ctype) == {"message": indonesian, "line": line,
                                                       "column": column}
    assert upload_error(client, data, "en", ctype) == {"message": english, "line": line,
                                                       "column": column}
