"""The browser fixtures of tests/browser (page, viz, fig52, shoot), shared."""
from tests.browser.conftest import fig52, page, shoot, viz  # noqa: F401
