"""The command line: ``python -m app COMMAND ...``.

Each command is a module of this package with ``register(subparsers)``, which
adds its parser and sets ``func`` to a callable taking the parsed arguments
and returning the exit status. Errors a user can fix raise :class:`CliError`
(or ``ValueError``) and end as one line on standard error with status 2.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# Command modules, in the order ``--help`` lists them.
COMMANDS = ("trace", "validate", "list", "export", "worksheet", "random")


class CliError(Exception):
    """A mistake in the command line or its input: reported in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's default prints usage; keep it one line
        raise CliError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m app", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"app.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"app.cli.{name}":  # command not built yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args) or 0
    except (CliError, ValueError) as exc:
        message = " ".join(str(exc).split())
        print(f"error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `trace ... | head` is fine
        return 0
