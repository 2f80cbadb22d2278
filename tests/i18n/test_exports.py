"""Pictures and worksheets in the reader's language: the legend, the step's
sentence, the instructions and the answer key."""
from __future__ import annotations

import html
import io

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.slow


def test_svg_export_in_indonesian(client):
    res = client.get("/api/trees/aima-fig-5-2/export.svg?algorithm=alphabeta&step=end&lang=id")
    assert res.status_code == 200
    svg = html.unescape(res.get_data(as_text=True))
    assert "cut-off: tidak ditelusuri" in svg and "Selesai: akar A bernilai 3" in svg
    assert "AIMA Gambar 5.2, permainan dua ply" in svg          # the file's own translation
    english = client.get("/api/trees/aima-fig-5-2/export.svg?algorithm=alphabeta&step=end&lang=en")
    assert "cut-off: not searched" in html.unescape(english.get_data(as_text=True))


def test_worksheet_in_indonesian(client):
    res = client.get("/api/trees/aima-fig-5-2/worksheet.pdf?algorithm=alphabeta",
                     headers={"Accept-Language": "id"})
    assert res.status_code == 200
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(res.data)).pages)
    text = " ".join(text.split())
    assert "Jalankan pencarian alpha-beta pada pohon ini" in text
    assert "Kunci jawaban" in text and "Di-prune: c2, c3." in text
