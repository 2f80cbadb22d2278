"""Adversarial-search teaching tool: minimax, alpha-beta, max^n, expectiminimax.

The package is laid out by concern (see docs/architecture.md):
``search`` is the pure core, ``treefile`` reads files, ``games`` builds trees
from rules, ``web`` serves the page, ``render`` draws pictures, ``cli`` is the
command line.
"""
__version__ = "0.1.0"
