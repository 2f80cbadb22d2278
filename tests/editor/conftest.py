"""The editor's browser tests use the shared browser fixtures: a fresh page
whose JavaScript errors fail the test, and screenshots in test-artifacts/."""
from tests.browser.conftest import page, shoot  # noqa: F401 (fixtures)
