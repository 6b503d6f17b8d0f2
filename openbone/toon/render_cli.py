"""``openbone toon render``: pictures of a behaviour performed by a rig, or of a cartoon's stage.

    openbone toon render wave.json --rig examples/hero.obone --seconds 4 -o wave.gif
    openbone toon render wave.json --rig spineboy-pro.json --atlas spineboy.atlas --animation idle -o wave.mp4
    openbone toon render show.json --cast A=hero.obone,B=raptor-pro.skel -o show.mp4

A behaviour runs on one character from time 0 and is drawn at every frame k / fps, framed on what
the frames draw; a cartoon or scene (§7) runs on a stage of ``--size`` pixels with its cast performed
by the rigs ``--cast`` names (``--rig`` for every other member): placement x y h facing from
``rt.frame()``, mirrored by facing, drawn in ``order``, the caption as text, the background as a
colour or a place.  Writers and atomic writes are ``openbone render``'s (openbone/render/output.py).
The toon CLI registers it with :func:`add_render_parser`.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..document import OpenBoneError

HELP = """\
Draw a Jabbertoon program performed by rigs (OpenBone .obone/.obonb, Spine .json/.skel).

A behaviour: one character (--rig), framed on what it draws (--scale pixels per rig unit, or
--size WxH to fit into), drawn as its art faces unless --facing says otherwise.
A cartoon or a scene (§7): the stage (--size, default 960x540) with the cast performed by the
rigs of --cast ID=RIG,... (--rig for every member not named); each placed, mirrored by its
facing and drawn in the frame's order, with the caption and the background.

--atlas, --roles, --skin and --animation take a value for --rig, or ID=VALUE for one cast member
(repeat the option).  Outputs: .gif, .mp4 (every frame), .png/.webp/.jpg (a sheet of --frames,
default 8 frames spread over the run).
"""


def _fail(msg: str, code: int = 2) -> int:
    print(f"openbone toon render: {msg}", file=sys.stderr)
    return code


def _size(text: str) -> Tuple[int, int]:
    m = re.fullmatch(r"(\d+)x(\d+)", text.strip())
    if not m or int(m.group(1)) <= 0 or int(m.group(2)) <= 0 or int(m.group(1)) * int(m.group(2)) > 1 << 26:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT (at most 64 Mpixels), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (v > 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return v


def parse_cast(text: Optional[str]) -> Dict[str, str]:
    """``"A=hero.obone,B=raptor.skel"`` → {"A": "hero.obone", "B": "raptor.skel"}."""
    out: Dict[str, str] = {}
    if not text:
        return out
    for part in text.split(","):
        cid, eq, path = part.partition("=")
        if not eq or not cid.strip() or not path.strip():
            raise OpenBoneError(f"--cast: expected ID=RIG[,ID=RIG...], got {part!r}")
        if cid.strip() in out:
            raise OpenBoneError(f"--cast: {cid.strip()!r} is named twice")
        out[cid.strip()] = path.strip()
    return out


def per_member(values: Optional[List[str]], option: str) -> Tuple[Optional[str], Dict[str, str]]:
    """Repeated ``--option VALUE`` / ``--option ID=VALUE``: (the value for --rig, {id: value})."""
    default, by_id = None, {}
    for v in values or []:
        cid, eq, rest = v.partition("=")
        if eq and cid and not os.path.exists(v) and "/" not in cid and os.sep not in cid:
            by_id[cid] = rest
        elif default is None:
            default = v
        else:
            raise OpenBoneError(f"{option}: given twice without ID= ({default!r}, {v!r})")
    return default, by_id


class _Rigs:
    """Documents loaded once per (path, atlas); a RigCharacter per character."""

    def __init__(self, textured: bool):
        self.textured = textured
        self.docs: Dict[Tuple[str, Optional[str]], Any] = {}

    def document(self, path: str, atlas: Optional[str]):
        key = (os.path.abspath(path), os.path.abspath(atlas) if atlas else None)
        if key not in self.docs:
            if not os.path.isfile(path):
                raise OpenBoneError(f"{path}: no such file")
            from ..spine.source import load_rig, rig_kind
            kind = rig_kind(path)
            if kind is None:
                if atlas:
                    raise OpenBoneError(f"--atlas {atlas}: an atlas applies to a Spine skeleton (.json / .skel), "
                                        f"not to the OpenBone document {path}")
                doc = load_rig(path)[0]
            else:
                if atlas and not os.path.isfile(atlas):
                    raise OpenBoneError(f"--atlas {atlas}: no such file")
                doc = load_rig(path, atlas=atlas if atlas else None)[0]
            self.docs[key] = doc
        return self.docs[key]

    def character(self, path: str, atlas=None, roles=None, skin=None, animation=None):
        from .rig import RigCharacter
        if roles is not None and not os.path.isfile(roles):
            raise OpenBoneError(f"--roles {roles}: no such file")
        return RigCharacter(self.document(path, atlas), roles, skin=skin, base_animation=animation)


class _Stream:
    """Frames for the writers, drawn as they are written: ``[0]`` (the writers read the size from
    it) and iteration (a fresh run each time, so nothing but the frame being written is held)."""

    def __init__(self, make, count: int):
        self._make, self._count, self._first = make, count, None

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, k: int):
        if k != 0:
            raise IndexError(k)
        if self._first is None:
            self._first = next(iter(self._make(1)))
        return self._first

    def __iter__(self) -> Iterator[Any]:
        return iter(self._make(None))


def _program(args):
    from .cli import _params, _read_program
    return _read_program(args.program), _params(args.params)


def _kind(program) -> str:
    from .perform import _program_kind
    return _program_kind(program)


def _wanted(args, n: int, ext: str) -> List[int]:
    from ..render.scene import parse_frames
    from .stage import even_frames
    if args.frames:
        ks = parse_frames(args.frames, n)
        bad = [k for k in ks if not 0 <= k < n]
        if bad:
            raise OpenBoneError(f"--frames: frame {bad[0]} is not in 0..{n - 1} ({n} frames)")
        return ks
    return list(range(n)) if ext in (".gif", ".mp4") else even_frames(n, 8)


def _runtime(args, **kw):
    from .runtime import create_runtime
    return create_runtime(seed=args.seed, fps=args.fps, **kw)


def render_behaviour(args, program, params, rigs: _Rigs, ext: str) -> Tuple[Any, int, str]:
    from ..bake import frame_count
    from .stage import Solo
    atlas, _ = per_member(args.atlas, "--atlas")
    roles, _ = per_member(args.roles, "--roles")
    skin, _ = per_member(args.skin, "--skin")
    anim, _ = per_member(args.animation, "--animation")
    if args.cast:
        raise OpenBoneError("--cast is for cartoons and scenes; a behaviour runs on --rig")
    if not args.rig:
        raise OpenBoneError("a behaviour needs --rig RIG")
    proto = rigs.character(args.rig, atlas, roles, skin, anim)
    proto.facing = int(proto.A) if args.facing is None else (1 if args.facing == "right" else -1)
    dur = args.dur
    seconds = args.seconds if args.seconds is not None else (dur if dur is not None and math.isfinite(dur) else 4.0)
    n = frame_count(seconds, args.fps)
    wanted = _wanted(args, n, ext)
    solo = Solo(scale=args.scale, size=args.size, background=args.background or "#ffffff", bones=args.bones,
                textured=not args.untextured)
    want = set(wanted)

    def run(keep):
        """Step a fresh runtime over the frames, yielding (k, snapshot) for the kept ones."""
        char = proto.fresh()
        rt = _runtime(args)
        rt.add_character("c", rig=char)
        rt.start_behaviour("c", program, dur=dur, params=params)
        last = max(keep) if keep else -1
        for k in range(last + 1):
            rt.step_to(k / args.fps)
            if k in keep:
                yield k, solo.snapshot(char)

    view = solo.view((s for _, s in run(want)), proto)

    def make(limit):
        ks = wanted if limit is None else wanted[:limit]
        if _ascending(ks):   # every frame of an animation, or stills in order: drawn as they are written
            for _, snap in run(set(ks)):
                yield solo.render(snap, view)
        else:                # stills in another order or repeated: the snapshots first, then in that order
            snaps = dict(run(set(ks)))
            for k in ks:
                yield solo.render(snaps[k], view)
    return _Stream(make, len(wanted)), len(wanted), f"{view.width}x{view.height}"


def _ascending(ks: List[int]) -> bool:
    return all(a < b for a, b in zip(ks, ks[1:]))


def render_cartoon(args, program, params, rigs: _Rigs, ext: str) -> Tuple[Any, int, str]:
    from ..bake import frame_count
    from .stage import Stage
    W, H = args.size or (960, 540)
    cast = parse_cast(args.cast)
    atlas, atlas_by = per_member(args.atlas, "--atlas")
    roles, roles_by = per_member(args.roles, "--roles")
    skin, skin_by = per_member(args.skin, "--skin")
    anim, anim_by = per_member(args.animation, "--animation")
    from .perform import cast_order
    ids = cast_order(program)
    extra = [cid for cid in cast if cid not in ids]
    if extra:
        raise OpenBoneError(f"--cast names {', '.join(map(repr, extra))}, not in the program's cast "
                            f"({', '.join(map(repr, ids)) or 'none'})")
    for opt, by in (("--atlas", atlas_by), ("--roles", roles_by), ("--skin", skin_by), ("--animation", anim_by)):
        for cid in by:
            if cid not in ids:
                raise OpenBoneError(f"{opt} {cid}=...: {cid!r} is not in the program's cast")
    missing = [cid for cid in ids if cid not in cast and not args.rig]
    if missing:
        raise OpenBoneError(f"no rig for cast member{'s' * (len(missing) > 1)} {', '.join(map(repr, missing))} "
                            f"(--cast {missing[0]}=RIG, or --rig RIG for every member)")
    if args.facing is not None:
        raise OpenBoneError("--facing is for a behaviour; in a cartoon the stage places and faces the cast")
    protos = {}
    for cid in ids:
        path = cast.get(cid, args.rig)
        own = cid in cast
        protos[cid] = rigs.character(path, atlas_by.get(cid, None if own else atlas),
                                     roles_by.get(cid, None if own else roles), skin_by.get(cid, skin),
                                     anim_by.get(cid, anim))

    def start():
        chars = {cid: p.fresh() for cid, p in protos.items()}
        rt = _runtime(args, aspect=W / H, **_cartoon_options(args))
        for cid in ids:
            rt.add_character(cid, rig=chars[cid])
        res = rt.start_cartoon(program, params=params)
        return rt, chars, res

    rt, _, res = start()
    seconds = args.seconds
    if seconds is None:
        seconds = res.get("duration") if isinstance(res, dict) else None
        if seconds is None or not math.isfinite(seconds):
            raise OpenBoneError("the cartoon does not end within max_duration: give --seconds")
    n = frame_count(seconds, args.fps)
    wanted = _wanted(args, n, ext)

    def make(limit):
        rt, chars, _ = start()
        stage = Stage(W, H, chars, background=args.background or "#ffffff", bones=args.bones,
                      textured=not args.untextured, captions=not args.no_caption)
        t0 = rt.t
        ks = wanted if limit is None else wanted[:limit]
        if _ascending(ks):
            for k in ks:
                rt.step_to(t0 + k / args.fps)
                yield stage.render(rt.frame())
            return
        shots = {}   # stills in another order or repeated: each frame drawn once, then in that order
        for k in sorted(set(ks)):
            rt.step_to(t0 + k / args.fps)
            shots[k] = stage.render(rt.frame())
        for k in ks:
            yield shots[k]
    return _Stream(make, len(wanted)), len(wanted), f"{W}x{H}"


def _cartoon_options(args) -> Dict[str, Any]:
    """speech / packs for the cartoon's runtime, read as ``openbone toon cartoon`` reads them."""
    out: Dict[str, Any] = {}
    from . import cli as toon_cli
    for name in ("packs", "speech"):
        value = getattr(args, name, None)
        if value is not None:
            loader = getattr(toon_cli, f"{name}_provider", None)
            if loader is None:   # pragma: no cover - builds before issue 14
                raise OpenBoneError(f"--{name} needs openbone toon cartoon's --{name} (issue 14)")
            out[name] = loader(value)
    return out


def cmd_render(args) -> int:
    from ..render.output import RASTER, check_extension, save_images
    from .runtime import ToonError
    try:
        from ..render import require_skia
        require_skia()
    except ImportError as e:
        return _fail(str(e))
    try:
        ext = check_extension(args.output, RASTER + (".gif", ".mp4"))
    except ValueError as e:
        return _fail(str(e))
    try:
        program, params = _program(args)
        kind = _kind(program)
        rigs = _Rigs(textured=not args.untextured)
        if kind == "behaviour":
            images, count, size = render_behaviour(args, program, params, rigs, ext)
        else:
            images, count, size = render_cartoon(args, program, params, rigs, ext)
        save_images(images, args.output, fps=args.fps, columns=args.columns)
    except (OpenBoneError, ToonError, ValueError) as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(f"{getattr(e, 'filename', None) or args.output}: {e.strerror or e}")
    if not args.quiet:
        what = "an animation of " if ext in (".gif", ".mp4") else ("a sheet of " if count > 1 else "")
        print(f"{args.output}: {what}{count} frame{'s' * (count != 1)} of {size} ({kind}, {args.fps:g} fps)")
    return 0


def add_render_parser(sub) -> argparse.ArgumentParser:
    """Adds ``render`` to the toon CLI's subcommands."""
    p = sub.add_parser("render", help="draw a behaviour performed by a rig, or a cartoon's stage (gif, mp4, png)",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="examples: openbone toon render wave.json --rig hero.obone --seconds 4 -o wave.gif;  "
                              "openbone toon render show.json --cast A=hero.obone,B=raptor-pro.skel -o show.mp4")
    p.add_argument("program", help="a behaviour, scene or cartoon (.json)")
    p.add_argument("-o", "--output", required=True, help="out.gif, out.mp4, or out.png/.webp/.jpg (a sheet)")
    p.add_argument("--rig", help="the rig (.obone/.obonb, Spine .json/.skel): the behaviour's, or every cast member's")
    p.add_argument("--cast", help="cartoons: ID=RIG[,ID=RIG...] per cast member")
    p.add_argument("--atlas", action="append", metavar="[ID=]ATLAS",
                   help="a Spine atlas (default: the one beside the skeleton, by Spine's naming)")
    p.add_argument("--roles", action="append", metavar="[ID=]ROLES", help="a role map (.json; default: guessed)")
    p.add_argument("--skin", action="append", metavar="[ID=]SKIN", help="the rig's skin")
    p.add_argument("--animation", action="append", metavar="[ID=]NAME",
                   help="the rig's own animation under the channels (looped, e.g. idle)")
    p.add_argument("--seconds", type=float, help="length (default: the behaviour's --dur, else 4; a cartoon's duration)")
    p.add_argument("--fps", type=_positive, default=24.0, help="frames per second (default 24)")
    p.add_argument("--dur", type=float, help="the behaviour's dur (default: none)")
    p.add_argument("--params", help="the program's params as JSON")
    p.add_argument("--seed", type=float, default=0, help="the runtime's random seed (default 0)")
    p.add_argument("--frames", help="stills: which frames (0, 0,12,24, 0:96:12, all; default 8 spread out)")
    p.add_argument("--columns", type=int, help="stills: frames per row of the sheet")
    p.add_argument("--size", type=_size, help="WxH: a behaviour fits into it; a cartoon's stage (default 960x540)")
    p.add_argument("--scale", type=_positive, help="a behaviour: pixels per rig unit (default: 480 px tall)")
    p.add_argument("--facing", choices=("right", "left"), help="a behaviour: the way it faces (default: as drawn)")
    p.add_argument("--background", help="#rrggbb or a colour name (a cartoon's place overrides it)")
    p.add_argument("--bones", action="store_true", help="draw the bones over the art")
    p.add_argument("--untextured", action="store_true", help="flat colours instead of the textures")
    p.add_argument("--no-caption", action="store_true", help="cartoons: leave the captions out")
    p.add_argument("--packs", help="cartoons: behaviour packs (as openbone toon cartoon --packs)")
    p.add_argument("--speech", help="cartoons: line lengths (as openbone toon cartoon --speech)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    p.set_defaults(func=cmd_render)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="openbone toon render", description=HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd")
    add_render_parser(sub)
    args = p.parse_args(["render"] + list(argv if argv is not None else sys.argv[1:]))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
