"""The server's own refusals (not a tree file's, not an argument's) in both
languages: an upload too big or sent wrongly, a body that is not a JSON
object, a picture format unknown, a run over its budget, a what-if flood over
Socket.IO. Only the sentence changes: the status and every other field of the
JSON error stay as the contract has them."""
from __future__ import annotations

import json

import pytest

from app.i18n.catalogue import read_catalogue


def _in(lang: str, how: str) -> dict:
    """Ask in ``lang`` by link (``?lang=``) or by the browser's preference."""
    return ({"query_string": {"lang": lang}} if how == "link"
            else {"headers": {"Accept-Language": lang}})


def _error(res, status: int) -> dict:
    assert res.status_code == status, res.get_data(as_text=True)
    return res.get_json()["error"]


@pytest.mark.parametrize("how", ["link", "header"])
def test_an_oversize_upload(make_app, how):
    client = make_app(BUDGET={"upload_bytes": 4096}).test_client()
    data = b"title: T\nroot: {value: 1}\n" + b"#" * 5000
    said = {}
    for lang in ("en", "id"):
        ask = _in(lang, how)
        res = client.post("/api/trees", data=data, headers={"Content-Type": "application/x-yaml",
                                                            **ask.get("headers", {})},
                          query_string=ask.get("query_string"))
        said[lang] = _error(res, 413)
    assert said["en"] == {"message": "The upload is larger than 4 KiB.", "line": None,
                          "column": None}
    assert said["id"] == {"message": "Berkas unggahan lebih besar dari 4 KiB.", "line": None,
                          "column": None}


def test_upload_transport_refusals(client):
    # A multipart upload without its field, a body of an unknown type, a foreign page.
    cases = [
        (dict(data={"other": "x"}, content_type="multipart/form-data"), 400,
         "A multipart upload needs the tree file in a field named 'file'.",
         "Unggahan multipart memerlukan berkas pohon di kolom bernama 'file'.",
         {"message", "line", "column"}),
        (dict(data=b"x", content_type="text/html"), 415,
         "Send the tree as multipart field 'file', or as the body with Content-Type ",
         "Kirim pohon sebagai kolom multipart 'file', atau sebagai isi permintaan dengan "
         "Content-Type ", {"message", "line", "column"}),
        (dict(data=b"x", content_type="application/x-yaml",
              headers={"Origin": "http://evil.example"}), 403,
         "Uploads are accepted from this server's own pages only.",
         "Unggahan hanya diterima dari halaman server ini sendiri.", {"message"}),
    ]
    for kwargs, status, english, indonesian, shape in cases:
        for lang, sentence in (("en", english), ("id", indonesian)):
            res = client.post(f"/api/trees?lang={lang}", **kwargs)
            err = _error(res, status)
            assert err["message"].startswith(sentence), (lang, err)
            assert set(err) == shape
    res = client.post("/api/trees?lang=id", data=b"x", content_type="text/html")
    assert _error(res, 415)["message"].endswith("; bukan text/html.")


def test_delete_refusals(client):
    up = client.post("/api/trees", data=b"title: T\nroot: {value: 1}\n",
                     content_type="application/x-yaml").get_json()
    for lang, missing, wrong, builtin in (
            ("en", "Send the upload's delete token in the X-Delete-Token header.",
             "That is not this tree's delete token.", "Built-in trees cannot be deleted."),
            ("id", "Kirim token hapus milik unggahan ini di header X-Delete-Token.",
             "Itu bukan token hapus untuk pohon ini.", "Pohon bawaan tidak dapat dihapus.")):
        headers = {"Accept-Language": lang}
        assert _error(client.delete(f"/api/trees/{up['id']}", headers=headers), 400) == \
            {"message": missing}
        assert _error(client.delete(f"/api/trees/{up['id']}",
                                    headers={**headers, "X-Delete-Token": "nope"}), 403) == \
            {"message": wrong}
        assert _error(client.delete("/api/trees/aima-fig-5-2",
                                    headers={**headers, "X-Delete-Token": "x"}), 403) == \
            {"message": builtin}


def test_bodies_that_are_not_a_json_object(client):
    for url, english, indonesian in (
            ("/api/play", "Send a JSON object: {position, move?, reply?, algorithm, depth, order}.",
             "Kirim satu objek JSON: {position, move?, reply?, algorithm, depth, order}."),
            ("/api/edit/run", "The request must be one JSON object.",
             "Permintaan harus berupa satu objek JSON.")):
        for lang, sentence in (("en", english), ("id", indonesian)):
            res = client.post(f"{url}?lang={lang}", data="[1]", content_type="application/json")
            assert _error(res, 400) == {"message": sentence}, url


def test_an_unknown_picture_format(client):
    url = "/api/trees/aima-fig-5-2/export.bmp"
    # The browser's preference first: a ?lang= link would be kept in a cookie.
    indonesian = _error(client.get(url, headers={"Accept-Language": "id-ID,id;q=0.9"}), 404)
    english = _error(client.get(url + "?lang=en"), 404)
    assert english == {"message": "Unknown picture format 'bmp': choose one of svg, png, pdf, "
                                  "dot, tikz."}
    assert indonesian == {"message": "Format gambar 'bmp' tidak dikenal: pilih salah satu dari "
                                     "svg, png, pdf, dot, tikz."}


@pytest.mark.parametrize("how", ["link", "header"])
def test_a_run_over_budget(make_app, how):
    """``check_trace`` (app.budget) refuses a whole minimax trace before it runs."""
    client = make_app(BUDGET={"trace_events": 10}).test_client()
    said = {}
    for lang in ("en", "id"):
        ask = _in(lang, how)
        res = client.get("/api/trees/aima-fig-5-2/trace", headers=ask.get("headers"),
                         query_string={"algorithm": "minimax", **ask.get("query_string", {})})
        said[lang] = _error(res, 413)
    assert said["en"]["message"].startswith("This run would have more than 10 events: too many")
    assert said["id"]["message"].startswith("Penelusuran ini akan menghasilkan lebih dari 10 "
                                            "kejadian: terlalu banyak untuk satu jawaban.")
    assert said["en"]["limit"] == said["id"]["limit"] == 10          # the machine's field kept
    assert set(said["en"]) == set(said["id"]) == {"message", "limit"}


def test_a_busy_gate_names_its_work_in_the_language():
    """The 503 of a full gate: its "what" is a catalogue phrase inside the sentence."""
    from app.budget import Gate, OverBudget
    from app.i18n import message_in, N_

    gate = Gate(1, wait=0.0, what=N_("renders"))
    with gate.slot(), pytest.raises(OverBudget) as caught:
        with gate.slot():
            pass
    exc = caught.value
    assert exc.status == 503 and exc.retry_after == 5
    assert message_in(exc.msgid, exc.msg_fields, "en") == \
        "The server is busy with other renders (1 at a time): try again in a few seconds."
    assert message_in(exc.msgid, exc.msg_fields, "id") == \
        "Server sedang sibuk dengan pembuatan gambar lain (1 sekaligus): coba lagi beberapa " \
        "detik lagi."


def test_a_what_if_flood_over_socketio_in_both_languages(make_app):
    """The editor's Socket.IO namespace: the 413 of a long search and the 429
    of a flood, said in the language of the page's connection."""
    from app.web import socketio_of

    from tests.editor.docs import library_doc

    app = make_app(BUDGET={"editor_steps": 20, "editor_runs_per_second": 1})   # burst: 2
    small = {"title": "t", "root": {"key": "a", "children": [{"key": "b", "value": 1},
                                                              {"key": "c", "value": 2}]}}
    for lang, long_sentence, flood_sentence in (
            ("en", "This search takes more than 20 steps, too many to re-run on every edit",
             "Too many what-if runs from this page (at most 1 a second): wait a moment."),
            ("id", "Pencarian ini memerlukan lebih dari 20 langkah, terlalu banyak untuk "
                   "dijalankan ulang setiap kali pohon diubah",
             "Terlalu banyak pencarian bagaimana-jika dari halaman ini (paling banyak 1 per "
             "detik): tunggu sebentar.")):
        sc = socketio_of(app).test_client(app, namespace="/edit", query_string=f"lang={lang}")
        try:
            too_long = sc.emit("run", {"tree": library_doc()}, namespace="/edit", callback=True)
            assert too_long["ok"] is False and too_long["error"]["status"] == 413
            assert too_long["error"]["message"].startswith(long_sentence), too_long
            assert too_long["error"]["limit"] == 20
            answers = [sc.emit("run", {"tree": small}, namespace="/edit", callback=True)
                       for _ in range(3)]
            refused = [a for a in answers if not a["ok"]]
            assert refused, answers
            for a in refused:
                assert a["error"]["status"] == 429 and a["error"]["retry_after"] >= 1
                assert a["error"]["message"] == flood_sentence
        finally:
            sc.disconnect(namespace="/edit")


@pytest.mark.slow
def test_every_budget_and_transport_sentence_has_its_indonesian():
    """The messages these modules say, read from the sources, are in the catalogue."""
    from app.i18n.catalogue import code_messages

    catalogue = {m.id: m for m in read_catalogue("id") if m.id}
    ours = [m for m in code_messages() if any(
        loc[0] in ("app/budget.py", "app/web/api.py", "app/web/errors.py", "app/web/editor.py",
                   "app/web/editor_sockets.py", "app/whatif/result.py")
        for loc in catalogue[m].locations)] if catalogue else []
    assert len(ours) >= 20
    assert all(catalogue[m].string and not catalogue[m].fuzzy for m in ours)


def test_the_editors_own_refusals_in_both_languages(client):
    """The what-if run's document checks (app.whatif): a tree that is not plain
    JSON (1e999 reads as infinity), an unknown option, a node without its key."""
    from tests.editor.docs import library_doc

    body = json.dumps({"tree": library_doc()}).replace('"value": 4', '"value": 1e999', 1)
    assert "1e999" in body
    unknown = {"tree": library_doc(), "options": {"algoritm": "minimax"}}
    keyless = {"tree": {"title": "t", "root": {"key": "a", "children": [{"value": 1}]}}}
    for lang, plain, option, key in (
            ("en", "the tree must be plain JSON data", "unknown option 'algoritm'",
             "every node needs its own key (a short string)"),
            ("id", "pohon harus berupa data JSON biasa", "opsi 'algoritm' tidak dikenal",
             "setiap simpul memerlukan kuncinya sendiri (teks pendek)")):
        res = client.post(f"/api/edit/run?lang={lang}", data=body,
                          content_type="application/json")
        assert _error(res, 400) == {"message": plain, "key": None}
        res = client.post(f"/api/edit/run?lang={lang}", json=unknown)
        assert _error(res, 400) == {"message": option, "key": None}
        res = client.post(f"/api/edit/run?lang={lang}", json=keyless)
        assert _error(res, 400) == {"message": key, "key": "a"}


def test_class_socket_refusals_in_both_languages(app):
    """The /class namespace's refusals in the language of the page's connection
    (its browser's Accept-Language here); status and shape unchanged."""
    from tests.classes.conftest import FIG52, Conn

    cls = app.test_client().post("/api/classes", json={"tree": FIG52}).get_json()
    for lang, step, payload, student in (
            ("en", "step must be a whole number between 0 and ",
             "step takes one JSON object", "join the class before answering"),
            ("id", "step harus berupa bilangan bulat antara 0 dan ",
             "step menerima satu objek JSON", "bergabunglah ke kelas sebelum menjawab")):
        conn = Conn(app, app.test_client(), headers={"Accept-Language": lang})
        try:
            ack = conn.call("step", {"code": cls["code"], "token": cls["instructor"], "step": -1})
            assert ack["ok"] is False and ack["error"]["status"] == 400
            assert ack["error"]["message"].startswith(step), ack
            ack = conn.call("step", [1])
            assert ack == {"ok": False, "error": {"message": payload, "status": 400}}
            ack = conn.call("answer", {"code": cls["code"], "question": "q", "answer": "3"})
            assert ack["ok"] is False and ack["error"]["status"] == 403
            assert ack["error"]["message"] == student
        finally:
            conn.close()


@pytest.mark.parametrize("game, english, indonesian, source", [
    ("game:tictactoe", "Tic-tac-toe from the empty board", "Tic-tac-toe dari papan kosong",
     "Aturan tic-tac-toe"),
    ("game:tictactoe:x...o....", "Tic-tac-toe from a position", "Tic-tac-toe dari sebuah posisi",
     "Aturan tic-tac-toe"),
    ("game:nim:1-5-1", "Nim from piles 5-1-1", "Nim dari tumpukan 5-1-1", "Nim versi Luger"),
    ("game:connect4:44", "Connect Four from a position", "Connect Four dari sebuah posisi",
     "Aturan Connect Four"),
])
def test_game_titles_and_descriptions_on_the_page(client, game, english, indonesian, source):
    """A game's page (made from its rules, not a file) is titled in the reader's
    language, the line under its title (where it comes from) too."""
    from html import escape

    for lang, title, words in (("en", english, "searched from its rules"),
                               ("id", indonesian, "ditelusuri")):
        html = client.get(f"/t/{game}", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert f">{escape(title)}</h1>" in html, (lang, title)
        assert words in html
        assert (source in html) == (lang == "id"), (lang, source)


def test_run_socket_protocol_errors_in_both_languages(app):
    """The run namespace (/): a payload that is not one object. (An unknown
    event is answered before Flask-SocketIO pushes the request's context, so
    it is still said in English.)"""
    from app.web import socketio_of

    for lang, payload in (("en", "start takes one JSON object"),
                          ("id", "start menerima satu objek JSON")):
        sc = socketio_of(app).test_client(app, headers={"Accept-Language": lang})
        try:
            assert sc.emit("start", [1], callback=True) == {"ok": False,
                                                            "error": {"message": payload}}
            assert sc.emit("begin", {}, callback=True)["error"]["message"] == \
                "unknown event 'begin': expected start, pull, close"
        finally:
            sc.disconnect()


def test_class_service_refusals_in_both_languages(app):
    """The classes' own refusals (no such class, not the instructor, a
    question about a leaf, an entry that is not a number) in the reader's
    language over HTTP and the /class namespace; status unchanged."""
    from tests.classes.conftest import FIG52, Conn

    client = app.test_client()
    cls = client.post("/api/classes", json={"tree": FIG52}).get_json()
    expected = {
        "en": ("there is no class ACDEFG: check the code",
               "only the instructor can do that (wrong or missing token)",
               "b1 is a leaf: its value is written on it",
               "'abc' is not a number: write e.g. 3, -2, 2.5, -inf or inf"),
        "id": ("tidak ada kelas ACDEFG: periksa kodenya",
               "hanya pengajar yang dapat melakukannya (token salah atau tidak ada)",
               "b1 adalah daun: nilainya tertulis padanya",
               "'abc' bukan bilangan: tulis misalnya 3, -2, 2.5, -inf atau inf"),
    }
    for lang, (missing, wrong_token, leaf, not_a_number) in expected.items():
        err = _error(client.get("/api/classes/ACDEFG", **_in(lang, "link")), 404)
        assert err["message"] == missing
        page = client.get("/c/ACDEFG", **_in(lang, "link"))
        assert page.status_code == 404    # the page capitalises the sentence
        assert missing[0].upper() + missing[1:] in page.get_data(as_text=True)
        inst = Conn(app, app.test_client(), headers={"Accept-Language": lang})
        pupil = Conn(app, app.test_client(), headers={"Accept-Language": lang})
        try:
            ack = inst.call("ask", {"code": cls["code"], "token": "x" * len(cls["instructor"]),
                                    "kind": "value", "node": "B"})
            assert ack == {"ok": False, "error": {"message": wrong_token, "status": 403}}
            ack = inst.call("ask", {"code": cls["code"], "token": cls["instructor"],
                                    "kind": "value", "node": "b1"})
            assert ack == {"ok": False, "error": {"message": leaf, "status": 400}}
            q = inst.call("ask", {"code": cls["code"], "token": cls["instructor"],
                                  "kind": "value", "node": "B"})["state"]["question"]
            assert pupil.call("join", {"code": cls["code"]})["ok"]
            ack = pupil.call("answer", {"code": cls["code"], "question": q["id"],
                                        "answer": "abc"})
            assert ack == {"ok": False, "error": {"message": not_a_number, "status": 400}}
        finally:
            inst.close()
            pupil.close()


def test_library_game_and_page_refusals_in_both_languages(client):
    """A random tree too deep, an id that names no game, an unknown algorithm
    and the play page of a position of another game, in both languages."""
    cases = [
        ("/api/trees/r-b1-d300-s1", 404,
         "There is no random tree 'r-b1-d300-s1': it would be 300 levels deep",
         "Tidak ada pohon acak 'r-b1-d300-s1': kedalamannya akan 300 tingkat"),
        ("/api/trees/game:chess", 404,
         "unknown game 'chess': the games are tictactoe, nim and connect4",
         "permainan 'chess' tidak dikenal: permainannya adalah tictactoe, nim, dan connect4"),
        ("/api/pseudocode?algorithm=bogo", 400,
         "unknown algorithm 'bogo': choose one of ",
         "algoritma 'bogo' tidak dikenal: pilih salah satu dari "),
    ]
    for url, status, english, indonesian in cases:
        for lang, sentence in (("en", english), ("id", indonesian)):
            sep = "&" if "?" in url else "?"
            err = _error(client.get(f"{url}{sep}lang={lang}"), status)
            assert err["message"].startswith(sentence), (url, lang, err)
    page = client.get("/play/nim?position=game:tictactoe&lang=id")
    assert page.status_code == 404
    assert "game:tictactoe bukan posisi dari nim." in page.get_data(as_text=True)


def test_the_address_rate_limit_in_both_languages(make_app):
    client = make_app(BUDGET={"uploads_per_client": "1 per minute"},
                      RATELIMIT_ENABLED=True).test_client()   # off by default in tests
    body = {"file": (__import__("io").BytesIO(b"title: T\nroot: {value: 1}\n"), "t.yaml")}
    assert client.post("/api/trees", data=body, content_type="multipart/form-data").status_code == 201
    for lang, sentence in (("en", "Too many requests from your address (1 per 1 minute): wait"),
                           ("id", "Terlalu banyak permintaan dari alamat Anda (1 per 1 minute): tunggu")):
        body = {"file": (__import__("io").BytesIO(b"title: U\nroot: {value: 2}\n"), "u.yaml")}
        res = client.post(f"/api/trees?lang={lang}", data=body, content_type="multipart/form-data")
        assert res.headers.get("Retry-After")
        assert _error(res, 429)["message"].startswith(sentence), lang


@pytest.mark.parametrize("sent, lang", [
    (b"GET /t/aima-fig-5-2?lang=id HTTP/1.1\r\nHost: h\r\n\r\n", "id"),
    (b"GET / HTTP/1.1\r\nHost: h\r\nCookie: theme=dark; lang=id\r\n\r\n", "id"),
    (b"GET / HTTP/1.1\r\nHost: h\r\nAccept-Language: id-ID,id;q=0.9,en;q=0.5\r\n\r\n", "id"),
    (b"GET /?lang=id HTTP/1.1\r\nHost: h\r\nCookie: lang=en\r\n\r\n", "id"),
    (b"GET / HTTP/1.1\r\nHost: h\r\nAccept-Language: fr\r\n\r\n", "en"),
    (b"", "en"),                    # refused before it has sent a byte
], ids=["link", "cookie", "header", "link-over-cookie", "other", "nothing-yet"])
def test_a_connection_over_its_addresses_share(sent, lang):
    """The 429 of a connection over its address's share (answered before its
    request is parsed, app/web/fairshare.py) was English only: it reads what
    the client sent so far for its language, as a page does."""
    import socket

    from app.web.fairshare import refuse

    client, server = socket.socketpair()
    with client:
        client.sendall(sent)
        refuse(server)
        answer = b""
        while chunk := client.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429 ") and f"Content-Language: {lang}".encode() in head
    error = json.loads(body)["error"]
    assert error["status"] == 429
    english = "Too many connections from your address: close some and try again."
    if lang == "en":
        assert error["message"] == english
    else:
        assert error["message"] == read_catalogue(lang)[english].string != english
