"""The rigs that ship with openbone (installed as ``openbone.examples``).

* ``hero.obone``: an OpenBone document (16 bones, IK, idle/walk/wave), the README's main rig.
* ``sprout.json`` + ``sprout.atlas`` + ``sprout.png``: the project's own small rig in the Spine 4.2
  skeleton-JSON format (bones, a region, a weighted mesh, two animations, an event) with its atlas
  and page, to try :func:`openbone.import_skeleton_json` on (written by tests/tools/make_sprout.py).

    import openbone.examples
    doc = openbone.examples.hero()                     # the loaded Document
    openbone.examples.path("sprout.atlas")             # a bundled file's path
"""
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent


def files() -> List[str]:
    """The names of the bundled example files."""
    return sorted(p.name for p in HERE.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc"))


def path(name: str) -> Path:
    """The path of a bundled example file (``"hero.obone"``, ``"sprout.json"``...)."""
    p = HERE / name
    if not p.is_file() or p.suffix in (".py", ".pyc"):
        raise FileNotFoundError(f"no bundled example {name!r}; there are {', '.join(files())}")
    return p


def hero():
    """``hero.obone`` as a :class:`openbone.Document`."""
    from .. import load  # type: ignore[misc]  # installed as openbone.examples

    return load(path("hero.obone"))


def sprout(**options):
    """``sprout.json`` imported by :func:`openbone.import_skeleton_json` (``options`` are its
    keyword arguments: ``curves``, ``pose_model``)."""
    from .. import import_skeleton_json  # type: ignore[misc]

    return import_skeleton_json(path("sprout.json"), **options)
