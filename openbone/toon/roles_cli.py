"""``openbone toon roles RIG``: print a rig's role map (guessed, or a given one checked).

The toon CLI registers it with ``add_roles_parser(subparsers)``; ``main(argv)`` runs it alone
(``python -m openbone.toon.roles_cli RIG``).  Exit codes: 0 ok, 1 a role map that does not fit
the rig, 2 a rig or file that cannot be read.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from ..document import OpenBoneError

HELP = ("Print the role map of a rig as JSON: which bones play the Jabbertoon roles (head, arm:1, "
        "tail#2 ...), the bone the root channels move, the character's height, reach limbs and "
        "spots, joint limits and the optional view / mouth / blink / mood mappings "
        "(docs/ROLES.md).  Without --roles it is guessed from the bone names and the hierarchy; "
        "with --roles the given map is checked against the rig and printed normalised.")


def load_rig(path: str):
    """A Document from .obone / .obonb, or a Spine skeleton .json / .skel (imported)."""
    from ..spine.source import load_rig as load_any
    return load_any(path)[0]


def add_roles_parser(sub) -> argparse.ArgumentParser:
    """Adds the ``roles`` subcommand to an argparse subparsers object (the toon CLI's)."""
    p = sub.add_parser("roles", help="print a rig's role map (guessed, or --roles checked)", description=HELP,
                       epilog="examples: openbone toon roles examples/hero.obone -o hero.roles.json;  "
                              "openbone toon roles spineboy-pro.json --roles spineboy.roles.json")
    _arguments(p)
    p.set_defaults(func=cmd_roles)
    return p


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rig", help=".obone / .obonb, or a Spine skeleton .json / .skel")
    p.add_argument("--roles", help="a role map to check against the rig instead of guessing one")
    p.add_argument("--skin", help="the skin to measure the rig with (default: the one showing the most)")
    p.add_argument("-o", "--output", help="write the JSON here (atomically) instead of standard output")
    p.add_argument("--compact", action="store_true", help="one line of JSON")


def cmd_roles(args) -> int:
    from .roles import guess_roles, load_roles
    try:
        doc = load_rig(args.rig)
    except OSError as e:
        print(f"openbone toon roles: {args.rig}: {e.strerror or e}", file=sys.stderr)
        return 2
    except (OpenBoneError, ValueError) as e:
        print(f"openbone toon roles: {args.rig}: {e}", file=sys.stderr)
        return 2
    try:
        if args.roles:
            if not os.path.exists(args.roles):
                print(f"openbone toon roles: {args.roles}: no such file", file=sys.stderr)
                return 2
            roles = load_roles(args.roles, doc)
        else:
            roles = guess_roles(doc, args.skin)
    except OpenBoneError as e:
        print(f"openbone toon roles: {e}", file=sys.stderr)
        return 1
    if args.output:
        roles.save(args.output, indent=None if args.compact else 2)
    else:
        sys.stdout.write(roles.dumps(indent=None if args.compact else 2) + "\n")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="openbone toon roles", description=HELP)
    _arguments(p)
    return cmd_roles(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
