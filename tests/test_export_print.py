"""The HTML documents as a browser prints them (headless Chromium, its own print to PDF):
the standings on a landscape A4 page with every column on it, as the PDF export lays them
out; a protocol on a portrait one."""

from __future__ import annotations

import base64
from pathlib import Path

import pypdf
import pytest
from pit_browser import CHROMIUM, Browser
from results_fixtures import demo

from fieldjudge.export import run_export

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


async def printed(tmp_path: Path, page: Path) -> pypdf.PdfReader:
    """``page`` printed by Chromium as a person does (the page's own @page size)."""
    browser = Browser(tmp_path, "about:blank")
    try:
        await browser.open()
        await browser.send("Page.navigate", url=page.as_uri())
        await browser.until(
            "document.readyState === 'complete' && !!document.querySelector('h1')", True
        )
        pdf = await browser.send("Page.printToPDF", preferCSSPageSize=True)
    finally:
        await browser.close()
    out = tmp_path / f"{page.stem}.pdf"
    out.write_bytes(base64.b64decode(pdf["data"]))
    return pypdf.PdfReader(str(out))


def words_right_edge(page: pypdf.PageObject) -> float:
    """The largest x at which the page's text starts (points)."""
    xs: list[float] = []
    page.extract_text(visitor_text=lambda text, cm, tm, *_: xs.append(tm[4]) if text.strip() else 0)
    return max(xs)


async def test_printed_standings_are_landscape_with_every_column(tmp_path: Path) -> None:
    t = demo(tmp_path / "cup")
    try:
        written = run_export(t, tmp_path / "out", "html")
    finally:
        t.close()
    (standings,) = [p for p in written if p.name.startswith("standings-")]
    (protocol, *_) = [p for p in written if p.name.startswith("protocol-")]
    pdf = await printed(tmp_path, standings)
    page = pdf.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert width > height  # landscape A4 (a portrait page cut off the last columns)
    text = page.extract_text()
    for header in ("Неявки", "Дополнительные показатели", "личные встречи"):
        assert header in text
    assert words_right_edge(page) < width  # nothing printed past the paper's edge
    portrait = (await printed(tmp_path, protocol)).pages[0]
    assert float(portrait.mediabox.width) < float(portrait.mediabox.height)
