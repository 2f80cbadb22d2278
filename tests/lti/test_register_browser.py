"""Dynamic Registration in the real browser (Debian's Chromium): the LMS (the
spec platform of tests/lti/spec_platform.py, written from the IMS
specification: the third-party platform does not register tools) frames the
registration link; the tool's closing page tells it to close its dialog; the
administrator's page, on a phone and in Indonesian, lists the platform and
disables it."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.assignments.test_browser import serious
from tests.lti.spec_platform import SpecPlatform

pytestmark = pytest.mark.browser
KEY = "browser-registration-key-0123456789"
SHOTS = Path(os.environ.get("SHOTS_DIR", Path(__file__).resolve().parents[2] / "test-artifacts"))


def test_the_lms_frames_the_link_and_is_told_to_close_its_dialog(browser, live_server,
                                                                 monkeypatch):
    monkeypatch.setenv("LTI_REGISTRATION_KEY", KEY)
    platform = SpecPlatform(product="canvas")
    try:
        pg = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        errors: list[str] = []
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.goto(f"{platform.url}/add-tool?link={live_server}/lti/register/{KEY}")
        expect(pg.locator("body")).not_to_have_attribute("data-closed", "", timeout=15_000)
        assert json.loads(pg.get_attribute("body", "data-closed")) == {
            "subject": "org.imsglobal.lti.close"}
        assert not errors, errors                 # framed without a CSP refusal
        (body,) = platform.registrations
        assert body["https://purl.imsglobal.org/spec/lti-tool-configuration"][
            "custom_parameters"] == {"canvas_user_id": "$Canvas.user.id"}
        pg.context.close()

        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True).new_page()
        phone.goto(f"{live_server}/lti/platforms/{KEY}?lang=id")
        row = phone.locator(f'[data-issuer="{platform.issuer}"]')
        expect(row.locator("[data-status]")).to_have_text("aktif")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        SHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(SHOTS / "lti-platforms-phone-id.png"), full_page=True)
        assert not serious(phone)
        row.locator("[data-action=disable]").click()
        expect(phone.locator(f'[data-issuer="{platform.issuer}"] [data-status]')).to_have_text(
            "nonaktif")
        phone.context.close()
    finally:
        platform.close()
