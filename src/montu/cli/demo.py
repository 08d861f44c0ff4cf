"""`montu demo`: the README's main job."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="run the unit end to end and print cycles per step")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from montu import demo

    demo.run()
    return 0
