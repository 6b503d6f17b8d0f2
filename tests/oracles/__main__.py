"""``python tests/oracles NAME [args]``: run one oracle's expected-file generator."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

NAMES = ("anim", "constraint", "draw", "particle", "sm")

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in NAMES:
        sys.exit("usage: python tests/oracles {%s} [case files] [--check]" % "|".join(NAMES))
    import importlib
    mod = importlib.import_module("oracles." + sys.argv[1])
    sys.exit(mod.main(sys.argv[2:]))
