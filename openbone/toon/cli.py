"""``openbone toon``: validate, run and plot Jabbertoon programs (and cartoons, §7).

Hooked into ``openbone.cli.build_parser`` by :func:`add_parser`.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from typing import Any, List, Optional

from .runtime import ToonError, validate

TOON_HELP = """\
Jabbertoon programs (JSON, the block language's §1):
  validate  check programs: errors and warnings with their dotted paths (exit 1 on errors)
  run       run a behaviour on one character and write the pose of every frame (.json or .npz)
  plot      draw channels of a behaviour over time (matplotlib) to an image
  cartoon   plan and play a scene or cartoon: its screenplay (--text), timeline (--json), frames
  roles     print a rig's role map (which bones play the Jabbertoon roles)
  render    draw a behaviour performed by a rig, or a cartoon's stage (gif, mp4, png)
"""


def _fail(msg: str, code: int = 2) -> int:
    print(f"openbone toon: {msg}", file=sys.stderr)
    return code


def _read_program(path: str) -> Any:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ToonError(f"{path}: {e.strerror}") from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return data.decode("utf-8", "replace")  # the loader reports where it is not JSON


def _json_safe(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    return v


def _write_atomic(path: str, write) -> None:
    d = os.path.dirname(os.path.abspath(path)) or "."
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".toon-", suffix=os.path.splitext(path)[1])
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def cmd_validate(args) -> int:
    reports, bad = [], False
    for path in args.programs:
        try:
            r = validate(_read_program(path))
        except ToonError as e:
            r = {"ok": False, "errors": [f"program: {e}"], "warnings": []}
        r = dict(r, file=path)
        bad |= not r["ok"]
        reports.append(r)
    if args.json:
        print(json.dumps(reports if len(reports) > 1 else reports[0], indent=2))
    else:
        for r in reports:
            state = "ok" if r["ok"] else f"invalid ({len(r['errors'])} error{'s' * (len(r['errors']) != 1)})"
            warn = f", {len(r['warnings'])} warning{'s' * (len(r['warnings']) != 1)}" if r["warnings"] else ""
            print(f"{r['file']}: {state}{warn}")
            for m in r["errors"]:
                print(f"  error: {m}")
            for m in r["warnings"]:
                print(f"  warning: {m}")
    return 1 if bad else 0


def _params(text: Optional[str]):
    if text is None:
        return None
    try:
        p = json.loads(text)
    except ValueError as e:
        raise ToonError(f"--params: not JSON ({e})") from None
    if not isinstance(p, dict):
        raise ToonError("--params is a JSON object {name: value}")
    return p


def _record(args):
    from .record import record
    program = _read_program(args.program)
    return record(program, legs=args.legs, dur=args.dur, fps=args.fps, seconds=args.seconds,
                  params=_params(args.params), seed=args.seed)


def cmd_run(args) -> int:
    try:
        rec = _record(args)
    except ToonError as e:
        return _fail(str(e))
    out = args.output
    if out.endswith(".npz"):
        import numpy as np
        arrays = rec.arrays()
        _write_atomic(out, lambda tmp: np.savez_compressed(open(tmp, "wb"), **arrays))
    else:
        doc = {"fps": args.fps, "legs": args.legs, "dur": args.dur,
               "frames": [{"t": float(t), "pose": _json_safe(p)} for t, p in zip(rec.t, rec.poses)]}
        text = json.dumps(doc, indent=1 if args.pretty else None)
        if out == "-":
            print(text)
        else:
            _write_atomic(out, lambda tmp: open(tmp, "w").write(text))
    if not args.quiet and out != "-":
        print(f"{out}: {len(rec.poses)} frames at {args.fps:g} fps, {len(rec.names())} channels")
    return 0


def cmd_plot(args) -> int:
    try:
        rec = _record(args)
    except ToonError as e:
        return _fail(str(e))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ..plot import plot_channels
    channels = args.channels.split(",") if args.channels else None
    fig, ax = plt.subplots(figsize=(9, 4.5))
    try:
        plot_channels(rec, channels=channels, ax=ax, title=os.path.basename(args.program))
    except ToonError as e:
        return _fail(str(e))
    fig.tight_layout()
    _write_atomic(args.output, lambda tmp: fig.savefig(tmp, dpi=args.dpi))
    plt.close(fig)
    if not args.quiet:
        print(f"{args.output}: {len(rec.poses)} frames")
    return 0


def packs_provider(path: str):
    """A §7.5 packs provider from a directory of pack files (found by their "id", else by the file
    name: bounce.json for c4c:beh:bounce) or one JSON file ({id: program | pack}, a list of packs, or
    one pack)."""
    by_id, by_stem = {}, {}

    def add(doc, stem=None):
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            by_id[doc["id"]] = doc
        elif stem is not None:
            by_stem[stem] = doc

    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for n in sorted(names):
                if n.endswith(".json"):
                    try:
                        with open(os.path.join(root, n), "rb") as f:
                            add(json.loads(f.read()), n[:-5])
                    except (OSError, ValueError):
                        continue
    else:
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read())
        except (OSError, ValueError) as e:
            raise ToonError(f"--packs {path}: {e}") from None
        if isinstance(doc, list):
            for d in doc:
                add(d)
        elif isinstance(doc, dict) and ("content" in doc or "scripts" in doc):
            add(doc, os.path.splitext(os.path.basename(path))[0])
        elif isinstance(doc, dict):
            by_id.update(doc)

    def provider(pack_id, version):
        if pack_id in by_id:
            return by_id[pack_id]
        return by_stem.get(pack_id.rsplit(":", 1)[-1])
    return provider


def speech_provider(path: str):
    """A §7.4 speech provider from a JSON file of line lengths: {text: seconds} or [{text, seconds}];
    a line it does not list gets the default rule."""
    from .runtime import estimate_speech
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read())
    except (OSError, ValueError) as e:
        raise ToonError(f"--speech {path}: {e}") from None
    table = {d["text"]: d["seconds"] for d in doc if isinstance(d, dict)} if isinstance(doc, list) else dict(doc)

    def provider(text, opts):
        if text in table:
            return table[text]
        return estimate_speech(text, opts.get("speed", 1))
    return provider


def cmd_cartoon(args) -> int:
    from .runtime import create_runtime
    from .text import to_text
    try:
        program = _read_program(args.program)
        if args.text:
            print(to_text(program))
            return 0
        rt = create_runtime(fps=args.fps, max_duration=args.max_duration,
                            packs=packs_provider(args.packs) if args.packs else None,
                            speech=speech_provider(args.speech) if args.speech else None)
        for cid in args.characters or []:
            rt.add_character(cid)
        res = rt.start_cartoon(program, params=_params(args.params))
    except ToonError as e:
        return _fail(str(e))
    if args.frames:
        if not args.output:
            return _fail("--frames needs -o FILE.json")
        length = res["duration"] if res["duration"] is not None else args.max_duration
        n = max(1, math.ceil(length * args.fps)) + 1  # every frame, the end's included
        frames = []
        try:
            for k in range(n):
                rt.step_to(k / args.fps)
                frames.append(_json_safe(rt.frame()))
        except ToonError as e:
            return _fail(str(e))
        doc = {"fps": args.fps, "duration": res["duration"], "frames": frames, "warnings": rt.warnings}
        _write_atomic(args.output, lambda tmp: open(tmp, "w").write(json.dumps(doc)))
        if not args.quiet:
            print(f"{args.output}: {len(frames)} frames at {args.fps:g} fps")
    if args.json or not args.frames:
        doc = {"duration": res["duration"], "timeline": _json_safe(res["timeline"]), "warnings": rt.warnings}
        text = json.dumps(doc, indent=1 if args.json else None)
        if args.output and not args.frames:
            _write_atomic(args.output, lambda tmp: open(tmp, "w").write(text))
        else:
            print(text)
    for w in rt.warnings if not args.json else []:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def _run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("program", help="a behaviour program (.json)")
    p.add_argument("--legs", type=int, default=2, help="the character's legs (default 2)")
    p.add_argument("--dur", type=float, help="the behaviour's dur (default: none, Infinity)")
    p.add_argument("--fps", type=float, default=24, help="frames per second (default 24)")
    p.add_argument("--seconds", type=float, help="length to record (default: dur)")
    p.add_argument("--params", help='the caller\'s params as JSON, e.g. \'{"speed": 2}\'')
    p.add_argument("--seed", type=float, default=0, help="the runtime's random seed (default 0)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def add_parser(sub) -> None:
    """Adds ``openbone toon ...`` to the CLI's subcommands."""
    t = sub.add_parser("toon", help="Jabbertoon programs: validate, run, plot (and cartoons)",
                       description=TOON_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    tsub = t.add_subparsers(dest="toon_command", metavar="ACTION")
    tsub.required = True
    v = tsub.add_parser("validate", help="check programs; exit 1 when one has errors",
                        epilog="example: openbone toon validate wave.json --json")
    v.add_argument("programs", nargs="+", metavar="PROGRAM")
    v.add_argument("--json", action="store_true", help="the {ok, errors, warnings} report as JSON")
    v.set_defaults(func=cmd_validate)
    r = tsub.add_parser("run", help="run a behaviour and write the pose of every frame",
                        description="Run a behaviour on one character (legs --legs) from time 0 and write "
                                    "the pose at every frame k/fps, k = 0 .. ceil(seconds*fps)-1.  .json: "
                                    "{fps, legs, dur, frames: [{t, pose}]} (NaN and infinities as null); "
                                    ".npz: a channel x frame array per key (base [dx dy sx sy rot mouth "
                                    "blink], parts, lift, reach_w/x/y/dx/dy) with their *_names, t, mood, "
                                    "view.",
                        epilog="example: openbone toon run hop.json --legs 4 --dur 4 -o poses.npz")
    _run_args(r)
    r.add_argument("-o", "--output", required=True, help="poses.json, poses.npz, or - for stdout (JSON)")
    r.add_argument("--pretty", action="store_true", help="indent the JSON")
    r.set_defaults(func=cmd_run)
    pl = tsub.add_parser("plot", help="draw channels of a behaviour over time",
                         epilog="example: openbone toon plot hop.json --dur 2 --channels dy,sy,part:ear:1 -o hop.png")
    _run_args(pl)
    pl.add_argument("--channels", help="comma-separated: dx,dy,part:tail,lift:hand:1,reach:hand:1 "
                                       "(default: every channel that moves)")
    pl.add_argument("-o", "--output", required=True, help="the image to write (png, svg, pdf ...)")
    pl.add_argument("--dpi", type=float, default=100)
    pl.set_defaults(func=cmd_plot)
    c = tsub.add_parser("cartoon", help="plan and play a scene or cartoon (text, timeline, frames)",
                        description="Plan a scene or cartoon program (or a cartoon pack's content) on a twin "
                                    "runtime and play it (§7): --text prints the screenplay outline, --json the "
                                    "duration, timeline and warnings, --frames -o frames.json every frame "
                                    "k/fps from 0 to the end (rt.frame(); NaN and infinities as null).",
                        epilog="examples: openbone toon cartoon story.json --text;  openbone toon cartoon "
                               "story.json --packs packs/ --speech lines.json --frames -o frames.json")
    c.add_argument("program", help="a scene or cartoon program, or a cartoon pack's content (.json)")
    c.add_argument("--packs", help="a directory of pack files, or one JSON file of packs (§7.5)")
    c.add_argument("--speech", help="a JSON file of line lengths {text: seconds} (§7.4)")
    c.add_argument("--params", help="the cartoon's params as JSON")
    c.add_argument("--character", dest="characters", action="append", help="a character the page adds first")
    c.add_argument("--fps", type=float, default=24, help="the frame grid of the plan and of --frames (default 24)")
    c.add_argument("--max-duration", type=float, default=3600, help="the plan's horizon in seconds (default 3600)")
    mode = c.add_mutually_exclusive_group()
    mode.add_argument("--text", action="store_true", help="the screenplay outline (§7.9)")
    mode.add_argument("--json", action="store_true", help="{duration, timeline, warnings} as JSON")
    mode.add_argument("--frames", action="store_true", help="every frame, to -o FILE.json")
    c.add_argument("-o", "--output", help="the file to write (--frames; --json too)")
    c.add_argument("-q", "--quiet", action="store_true")
    c.set_defaults(func=cmd_cartoon)
    from .roles_cli import add_roles_parser  # issue 15: openbone toon roles RIG
    add_roles_parser(tsub)
    from .render_cli import add_render_parser  # issue 15: openbone toon render PROGRAM --rig RIG
    add_render_parser(tsub)


def main(argv: Optional[List[str]] = None) -> int:  # pragma: no cover - openbone.cli is the entry
    from ..cli import main as top
    return top(["toon"] + list(argv if argv is not None else sys.argv[1:]))
