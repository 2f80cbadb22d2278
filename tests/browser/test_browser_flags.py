"""The session's Chromium runs as tests/conftest.py says: one
``--disable-features`` switch (Chromium keeps only the last one it is given,
so a second would silently drop the other's features), and no address-bar
pop-up preloaded for each context (40 % of what a context cost, for a bar no
test sees)."""
from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import NO_ADDRESS_BAR_POPUPS, PLAYWRIGHT_DISABLED_FEATURES


def _descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (the children each of its threads started)."""
    found, todo = [], [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*/children"):
            kids = [int(c) for c in task.read_text().split()]
            found += kids
            todo += kids
    return found


def _browser_process_switches() -> list[str]:
    """The command line of this worker's Chromium browser process (the one
    without ``--type=``)."""
    for pid in _descendants(os.getpid()):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if argv[0].endswith("/chromium") and "/usr/lib/" in argv[0] \
                and not any(a.startswith("--type=") for a in argv):
            return argv
    raise AssertionError("no Chromium browser process under this test process")


def test_one_feature_switch_and_no_address_bar_popups(browser):
    switches = [a for a in _browser_process_switches() if a.startswith("--disable-features=")]
    assert len(switches) == 1, switches
    names = set(switches[0].split("=", 1)[1].split(","))
    assert names >= set(PLAYWRIGHT_DISABLED_FEATURES.split(",")) | set(NO_ADDRESS_BAR_POPUPS.split(","))

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("about:blank")
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets")["targetInfos"]
        popups = [t["url"] for t in targets if t["type"] == "browser_ui"]
        assert popups == [], popups
        assert any(t["type"] == "page" and t["url"] == "about:blank" for t in targets)
    finally:
        context.close()
