"""Planning a pipeline run: rigs × skins × animations → tasks with their outputs.

A task is one (rig, skin, animation) for a bake or a render, or one (rig, skin) for a
sprite sheet (every selected animation in one texture).  Outputs come from a pattern
with ``{rig}`` (the file's stem), ``{relpath}`` (its path below the inputs' common
directory, without the extension), ``{skin}`` and ``{animation}`` (``{stem}`` is
``{rig}``).  When ``-o`` is a directory the pattern is ``{rig}``, then ``-{skin}`` when
skins were chosen, ``-{animation}`` when more than one animation per rig was, then the
format's extension.  Two tasks writing the same file, or an existing output without
``overwrite``, are found before anything runs (:class:`PlanError`, naming both inputs).
"""
from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

from ..document import Document

ALL = "all"


class PlanError(ValueError):
    """The run cannot start (colliding or existing outputs, unknown names, bad pattern)."""


@dataclass
class Task:
    """One unit of work (picklable: it travels to Dask workers)."""

    kind: str                    # "bake", "render" or "sheet"
    rig: str                     # input path
    skin: Optional[str]
    animation: Optional[str]     # None: the setup pose; for a sheet, the first of `animations`
    output: str
    options: Dict[str, Any] = field(default_factory=dict)
    animations: Optional[List[Optional[str]]] = None  # sheets: every animation packed
    overwrite: bool = False
    error: Optional[str] = None  # found while planning (the rig does not load, no such animation)

    def describe(self) -> str:
        what = self.animation if self.kind != "sheet" else ", ".join(str(a) for a in self.animations or [])
        return f"{self.rig} [{self.skin or 'no skin'} / {what or 'setup pose'}]"

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def load_rig(path: Union[str, os.PathLike]) -> Document:
    """The one place rigs are loaded from files (CLI, pipelines, workers): ``.obone`` /
    ``.obonb`` by content; a Spine skeleton (JSON or ``.skel``, by content) through the
    importer, textured from the atlas beside it (``openbone.spine.load_rig``).
    Raises OSError (unreadable) or OpenBoneError (not a rig)."""
    from ..spine import load_rig as load_any
    return load_any(os.fspath(path))[0]


_UNSAFE = re.compile(r"[^\w.+-]+", re.UNICODE)


def safe_name(text: Optional[str], empty: str) -> str:
    """A name usable as one path component ('walk cycle/2' → 'walk_cycle_2')."""
    if text is None or text == "":
        return empty
    s = _UNSAFE.sub("_", text).strip("._")
    return s or empty


def _common_dir(rigs: Sequence[str]) -> str:
    dirs = [os.path.dirname(os.path.abspath(r)) for r in rigs]
    try:
        return os.path.commonpath(dirs) if dirs else os.getcwd()
    except ValueError:  # different drives
        return ""


def relpath_of(rig: str, common: str) -> str:
    stem = os.path.splitext(os.path.abspath(rig))[0]
    if not common:
        return stem.lstrip(os.sep)
    return os.path.relpath(stem, common)


def _select(items: Sequence[Any], wanted: Union[None, str, Sequence[str]], what: str, rig: str,
            default: List[Optional[str]]) -> List[Optional[str]]:
    names = [it.name for it in items]
    if wanted is None:
        return default
    if wanted == ALL:
        return list(names) if names else default
    out: List[Optional[str]] = []
    for w in wanted:
        idx = [i for i, it in enumerate(items) if it.name == w] or [i for i, it in enumerate(items) if it.id == w]
        if not idx:
            raise PlanError(f"{rig}: no {what} named {w!r} (the rig has: {', '.join(names) or 'none'})")
        name = items[idx[0]].name
        if name not in out:
            out.append(name)
    return out


def default_pattern(fmt_ext: str, skins_chosen: bool, many_animations: bool) -> str:
    p = "{rig}"
    if skins_chosen:
        p += "-{skin}"
    if many_animations:
        p += "-{animation}"
    return p + fmt_ext


def is_directory_target(output: str, n_tasks: int) -> bool:
    """``-o`` names a directory: it ends with a separator, exists as one, or several
    tasks go to a name with neither a pattern nor an extension."""
    if output.endswith(("/", os.sep)) or os.path.isdir(output):
        return True
    return n_tasks > 1 and "{" not in output and not os.path.splitext(output)[1]


def plan(kind: str, rigs: Sequence[str], output: str, animations: Union[None, str, Sequence[str]] = None,
         skins: Union[None, str, Sequence[str]] = None, ext: str = ".npz", overwrite: bool = False,
         options: Optional[Dict[str, Any]] = None, docs: Optional[Dict[str, Document]] = None) -> List[Task]:
    """The tasks of a run, outputs resolved and checked (see the module doc).

    ``animations``: None (the rig's first for a bake, the setup pose for a render),
    ``"all"`` or names; ``skins``: None (no skin), ``"all"`` or names.  ``docs`` maps
    rig paths to loaded documents (loaded here otherwise).  A rig that does not load or
    lacks a named animation or skin becomes a task carrying that ``error`` (reported by
    the run, which goes on with the others); colliding or existing outputs raise
    PlanError before anything runs."""
    options = dict(options or {})
    docs = dict(docs or {})
    failed: List[Task] = []
    common = _common_dir(rigs)
    raw: List[Dict[str, Any]] = []
    for rig in rigs:
        doc = docs.get(rig)
        try:
            if doc is None:
                try:
                    doc = docs[rig] = load_rig(rig)
                except OSError as e:
                    raise PlanError(e.strerror or str(e))
                except ValueError as e:  # OpenBoneError, JSON
                    raise PlanError(str(e).splitlines()[0] if str(e) else type(e).__name__)
            default_anim: List[Optional[str]] = [None]
            if kind == "bake" and doc.animations:
                default_anim = [doc.animations[0].name]
            anims = _select(doc.animations, animations, "animation", rig, default_anim)
            sks = _select(doc.skins, skins, "skin", rig, [None])
        except PlanError as e:  # this rig fails alone: a task that reports it, the others run
            msg = str(e)
            failed.append(Task(kind, rig, None, None, "", dict(options), None, overwrite,
                               msg[len(rig) + 2:] if msg.startswith(rig + ": ") else msg))
            continue
        for sk in sks:
            if kind == "sheet":
                raw.append({"rig": rig, "skin": sk, "animation": anims[0], "animations": anims})
            else:
                for an in anims:
                    raw.append({"rig": rig, "skin": sk, "animation": an, "animations": None})
    skins_chosen = skins is not None
    many_anims = kind != "sheet" and (animations == ALL or (isinstance(animations, (list, tuple))
                                                          and len(animations) > 1))
    pattern = output
    if is_directory_target(output, len(raw)):
        pattern = os.path.join(output, default_pattern(ext, skins_chosen, many_anims))
    elif "{" not in output and len(raw) > 1:
        raise PlanError(f"{len(raw)} outputs need -o DIR or a pattern with {{rig}}, {{relpath}}, {{skin}}, "
                        f"{{animation}}")
    tasks: List[Task] = []
    seen: Dict[str, Dict[str, Any]] = {}
    for r in raw:
        fields = {"rig": safe_name(os.path.splitext(os.path.basename(r["rig"]))[0], "rig"),
                  "relpath": relpath_of(r["rig"], common),
                  "skin": safe_name(r["skin"], "noskin"), "animation": safe_name(r["animation"], "setup")}
        fields["stem"] = fields["rig"]
        try:
            out = pattern.format(**fields)
        except (KeyError, IndexError, ValueError) as e:
            raise PlanError(f"bad output pattern {pattern!r}: {e} (use {{rig}}, {{relpath}}, {{skin}}, {{animation}})")
        key = os.path.normcase(os.path.abspath(out))
        if key in seen:
            a = seen[key]
            a_desc = f"{a['rig']} ({a['skin'] or 'no skin'}, {a['animation'] or 'setup pose'})"
            b_desc = f"{r['rig']} ({r['skin'] or 'no skin'}, {r['animation'] or 'setup pose'})"
            hint = "{relpath}" if a["rig"] != r["rig"] else "{skin} and {animation}"
            raise PlanError(f"{a_desc} and {b_desc} would both write {out}: put {hint} in the output pattern")
        seen[key] = r
        if not overwrite and os.path.lexists(out):
            raise PlanError(f"{out} exists (--overwrite replaces it)")
        tasks.append(Task(kind, r["rig"], r["skin"], r["animation"], out, dict(options), r["animations"],
                          overwrite))
    return tasks + failed
