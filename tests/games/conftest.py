"""The real-browser fixtures of tests/browser, for the games' page tests."""
from tests.browser.conftest import page  # noqa: F401
