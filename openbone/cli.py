"""The `openbone` command line (also `python -m openbone`).

Commands: conformance run/compare, selftest, info, validate, convert, bake, render; `--help` on
each; `--version`.

Exit codes: 0 success, 1 the command ran and found a problem (differences,
broken references, a case that errored), 2 bad usage or unreadable input.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import warnings
from typing import Any, Dict, List, Optional

from . import conformance
from .document import OpenBoneError, dumps, load


def _fail(msg: str, code: int = 2) -> int:
    print(f"openbone: error: {msg}", file=sys.stderr)
    return code


def cmd_conformance_run(args) -> int:
    try:
        out, errored = conformance.run(args.cases)
    except (OSError, ValueError, KeyError) as e:
        return _fail(f"{args.cases}: {e}")
    text = json.dumps(out, indent=1 if args.pretty else None, separators=None if args.pretty else (",", ":"))
    if args.output:
        from .atomic import write_text
        try:
            write_text(args.output, text + "\n")
        except OSError as e:
            return _fail(f"{args.output}: {e.strerror or e}")
    else:
        sys.stdout.write(text + "\n")
    for c in out["cases"]:
        if "error" in c:
            print(f"openbone: case {c['name']}: {c['error']}", file=sys.stderr)
    return 1 if errored else 0


def cmd_conformance_compare(args) -> int:
    try:
        with open(args.expected, encoding="utf-8") as f:
            expected = json.load(f)
        with open(args.actual, encoding="utf-8") as f:
            actual = json.load(f)
    except (OSError, ValueError) as e:
        return _fail(str(e))
    diffs = conformance.compare(expected, actual)
    for d in diffs:
        print(d)
    n_cases = len(expected.get("cases", []))
    if diffs:
        print(f"{len(diffs)} differences in {n_cases} cases", file=sys.stderr)
        return 1
    print(f"all {n_cases} cases match", file=sys.stderr)
    return 0


# ---- rig analysis (info, validate) -----------------------------------------

# A loader warning is "broken" when it reports a dangling reference: a name or id that
# the document uses but does not define (the part is dropped, skipped or ignored).  A
# parent listed after its child (the spec makes the bone a root) and oddities that have a
# defined meaning (unknown attachment/state/action types, unsorted keys, short uv lists)
# stay warnings.
_BROKEN = re.compile(
    r'does not exist'
    r'|\bunknown (bone|slot|timeline target|binding object)\b'
    r'|unknown or dropped slot'
    r'|\bno (?!property\b)[a-z][a-z ]* "'
)
_ALLOWED = re.compile(r'is listed after this bone'
                      r'|left out of the draw order')  # §5: "the listed slots that exist fill the remaining indices"

VALIDATE_HELP = """\
Load each rig and check its references: bone parents, slot bones, skin slots, constraint
bones and targets, attachment images, timeline targets, event keys, state-machine
transition targets and inputs.

Findings are classified:
  broken   a dangling reference (the rig names a bone, slot, image, state, ... that it
           does not define; the runtime drops or skips that part), or a file that does
           not load at all;
  warning  allowed by the spec but probably unintended: a parent listed after its child
           (the bone becomes a root), a draw-order key naming a missing slot (§5: the
           slots that exist fill the order), unknown attachment/state/action types, key
           times out of order, short uv lists, unreachable states, unused images.

Exit code: 0 when no rig is broken (1 with --strict when there are warnings), 1 when
something is broken, 2 when a file cannot be read.  --json prints one report per rig:
{"file", "ok", "error", "broken": [...], "warnings": [...]}.
"""


def classify_warning(w: str) -> str:
    """'broken' or 'warning' for one of the loader's ``doc.warnings`` (see VALIDATE_HELP)."""
    if _ALLOWED.search(w):
        return "warning"
    return "broken" if _BROKEN.search(w) else "warning"


def _attachment_images(d: Dict[str, Any]):
    """(place, image id) for every image an attachment references."""
    for si, skin in enumerate((d.get("skeleton") or {}).get("skins") or []):
        if not isinstance(skin, dict):
            continue
        for slot, atts in (skin.get("attachments") or {}).items():
            if not isinstance(atts, dict):
                continue
            for name, a in atts.items():
                if not isinstance(a, dict):
                    continue
                place = f"skins[{si}] ({skin.get('name', '')}) {slot}/{name}"
                t = a.get("type")
                if t in ("region", "mesh") and isinstance(a.get("image"), str):
                    yield place, a["image"]
                elif t == "sequence":
                    for fi, fr in enumerate(a.get("frames") or []):
                        if isinstance(fr, dict) and isinstance(fr.get("image"), str):
                            yield f"{place} frame {fi}", fr["image"]
                elif t == "particles" and a.get("look") == "image" and isinstance(a.get("image"), str):
                    yield place, a["image"]  # other looks draw no image (§8.8)


def unreachable_states(d: Dict[str, Any]) -> List[str]:
    """States no path leads to from their layer's entry (transitions, ``@any``
    transitions from any reached state, ``onComplete``), as 'machine/layer/state'."""
    out = []
    for m in d.get("stateMachines") or []:
        if not isinstance(m, dict):
            continue
        for li, layer in enumerate(m.get("layers") or []):
            if not isinstance(layer, dict):
                continue
            states = [s for s in layer.get("states") or [] if isinstance(s, dict)]
            ids = [s.get("id") for s in states]
            edges: Dict[Any, List[Any]] = {}
            anyto = []
            for t in layer.get("transitions") or []:
                if not isinstance(t, dict):
                    continue
                if t.get("from") == "@any":
                    anyto.append(t.get("to"))
                else:
                    edges.setdefault(t.get("from"), []).append(t.get("to"))
            for s in states:
                if s.get("onComplete") is not None:
                    edges.setdefault(s.get("id"), []).append(s.get("onComplete"))
            seen = set()
            todo = [layer.get("entry")] if layer.get("entry") in ids else []
            if todo:
                todo += anyto  # @any transitions fire from whatever state the layer is in
            while todo:
                s = todo.pop()
                if s in seen or s not in ids:
                    continue
                seen.add(s)
                todo.extend(edges.get(s, []))
            lname = layer.get("name") or layer.get("id") or f"layer {li}"
            for s in states:
                if s.get("id") not in seen:
                    out.append(f"{m.get('name') or m.get('id')}/{lname}/{s.get('name') or s.get('id')}")
    return out


def analyse(doc) -> Dict[str, List[str]]:
    """{"broken": [...], "warnings": [...]} for a loaded rig (see VALIDATE_HELP)."""
    broken: List[str] = []
    warns: List[str] = []
    for w in doc.warnings:
        (broken if classify_warning(w) == "broken" else warns).append(w)
    d = json.loads(doc.json)
    image_ids = {im["id"] for im in doc.images}
    used = set()
    for place, ref in _attachment_images(d):
        if ref in image_ids:
            used.add(ref)
        else:
            broken.append(f"{place}: image \"{ref}\" does not exist")
    for im in doc.images:
        if im["id"] not in used:
            warns.append(f"image \"{im['name']}\" ({im['id']}) is not used by any attachment")
    for s in unreachable_states(d):
        warns.append(f"state {s} is unreachable (no transition or onComplete leads to it)")
    from .render.scene import texture_files
    for kind, ident, src, exists in texture_files(doc):
        if not exists:
            warns.append(f"{kind} \"{ident}\": file {src} does not exist next to the rig")
    return {"broken": broken, "warnings": warns}


def _load(path: str, **import_kw):
    """(doc, None) or (None, (exit code, message)).  A Spine skeleton (.json / .skel, by
    content) is imported on the fly (``import_kw`` go to openbone.import_skeleton),
    saying so once on stderr."""
    from .spine import load_rig
    try:
        doc, kind = load_rig(path, **import_kw)
    except OSError as e:
        return None, (2, f"{path}: {e.strerror or e}")
    except OpenBoneError as e:
        return None, (1, f"{path}: {e}")
    if kind:
        _say_imported(path, doc, kind)
    return doc, None


def _say_imported(path: str, doc, kind: str) -> None:
    atlas = getattr(doc, "import_atlas", None)
    n = len(getattr(doc, "import_warnings", []))
    print(f"openbone: {path}: imported from a {kind} ({'atlas ' + os.path.basename(atlas) if atlas else 'no atlas'}"
          f"{f', {n} import warning' + ('s' if n != 1 else '') if n else ''})", file=sys.stderr)


# ---- info ------------------------------------------------------------------

def cmd_info(args) -> int:
    doc, err = _load(args.rig)
    if err:  # a rig that cannot be read or parsed is unusable input: exit 2
        return _fail(err[1])
    report = analyse(doc)
    kinds: Dict[str, int] = {}
    for c in doc.constraints:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    if args.json:
        out = {
            "file": args.rig, "name": doc.name, "width": doc.width, "height": doc.height, "fps": doc.fps,
            "bones": len(doc.bones), "slots": len(doc.slots), "skins": [s.name for s in doc.skins],
            "animations": [{"name": a.name, "duration": a.length, "timelines": a.timelines, "events": a.events}
                           for a in doc.animations],
            "constraints": kinds, "state_machines": [
                {"name": m.name, "layers": len(m.layers), "states": sum(len(x) for x in m.layers),
                 "inputs": [n for n, _ in m.inputs]} for m in doc.state_machines],
            "images": len(doc.images), "atlas_pages": doc.meta.get("pages", 0), "events": len(doc.events),
            "curveMode": doc.meta.get("curveMode"), "poseModel": doc.meta.get("poseModel"),
            "warnings": report["broken"] + report["warnings"],
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"{doc.name or args.rig}: {doc.width:g}x{doc.height:g}, fps {doc.fps:g}")
    print(f"  bones: {len(doc.bones)}   slots: {len(doc.slots)}   skins: {', '.join(s.name for s in doc.skins) or '-'}")
    print("  animations: " + (", ".join(f"{a.name} ({a.length:g}s)" for a in doc.animations) or "-"))
    print("  constraints: " + (", ".join(f"{k} {n}" for k, n in kinds.items()) or "-"))
    print("  state machines: " + (", ".join(
        f"{m.name} ({len(m.layers)} layer{'s' if len(m.layers) != 1 else ''}, "
        f"{sum(len(x) for x in m.layers)} states, {len(m.inputs)} inputs)" for m in doc.state_machines) or "-"))
    print(f"  images: {len(doc.images)}   atlas pages: {doc.meta.get('pages', 0)}   events: {len(doc.events)}")
    if doc.meta.get("curveMode", "openbone") != "openbone" or doc.meta.get("poseModel", "openbone") != "openbone":
        print(f"  imported: curveMode {doc.meta.get('curveMode')}, poseModel {doc.meta.get('poseModel')}")
    if args.verbose:
        print("  bone tree:")
        children: Dict[Optional[str], List[Any]] = {}
        for b in doc.bones:
            children.setdefault(b.parent, []).append(b)

        def walk(parent, depth):
            for b in children.get(parent, []):
                print(f"    {'  ' * depth}{b.name} (length {b.length:g})")
                walk(b.name, depth + 1)
        walk(None, 0)
        print("  slots (draw order): " + ", ".join(f"{s.name}@{s.bone}" for s in doc.slots))
    for w in report["broken"] + report["warnings"]:
        print(f"  warning: {w}")
    return 0


# ---- validate --------------------------------------------------------------

def cmd_validate(args) -> int:
    reports = []
    worst = 0
    for rig in args.rigs:
        doc, err = _load(rig)
        if err:
            reports.append({"file": rig, "ok": False, "error": err[1].split(": ", 1)[-1], "broken": [],
                            "warnings": []})
            worst = max(worst, err[0])
            continue
        r = analyse(doc)
        ok = not r["broken"] and not (args.strict and r["warnings"])
        reports.append({"file": rig, "ok": ok, "error": None, "broken": r["broken"], "warnings": r["warnings"]})
        if not ok:
            worst = max(worst, 1)
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        for r in reports:
            if r["error"]:
                status = "error: " + r["error"]
            elif r["broken"]:
                status = f"broken ({len(r['broken'])} problem{'s' if len(r['broken']) != 1 else ''})"
            else:
                status = "ok" + (f" ({len(r['warnings'])} warnings)" if r["warnings"] else "")
            print(f"{r['file']}: {status}")
            for b in r["broken"]:
                print(f"  broken: {b}")
            if not args.quiet:
                for w in r["warnings"]:
                    print(f"  warning: {w}")
    return worst


# ---- convert ---------------------------------------------------------------

CONVERT_EXTENSIONS = {".obonb": "binary", ".obone": "json", ".json": "json"}


def cmd_convert(args) -> int:
    from .atomic import atomic_write
    from .spine import rig_kind
    if args.format is None and args.output != "-":
        ext = os.path.splitext(args.output)[1].lower()
        if ext not in CONVERT_EXTENSIONS:
            return _fail(f"{args.output}: unknown output format {ext or '(no extension)'!r} "
                         f"(.obone or .json for JSON, .obonb for binary; --format overrides)")
    try:
        spine_input = rig_kind(args.input) is not None
    except OSError as e:
        return _fail(f"{args.input}: {e.strerror or e}")
    kw: Dict[str, Any] = {}
    if spine_input:  # issue 9/16: a Spine skeleton (JSON or .skel) is imported
        kw = dict(curves=args.curves or "spine", pose_model=args.pose_model or "spine",
                  atlas=False if args.no_atlas else args.atlas)
        if args.output != "-":  # atlas page paths relative to where the document goes
            kw["relative_to"] = os.path.dirname(os.path.abspath(args.output))
    elif args.curves or args.pose_model or args.atlas or args.no_atlas:
        return _fail(f"{args.input}: --curves, --pose-model and --atlas apply to Spine input only")
    doc, err = _load(args.input, **kw)
    if err:
        return _fail(err[1])
    for w in getattr(doc, "import_warnings", []):
        print(f"openbone: warning: {w}", file=sys.stderr)
    binary = CONVERT_EXTENSIONS.get(os.path.splitext(args.output)[1].lower()) == "binary" \
        if args.format is None else args.format == "binary"
    data = dumps(doc, binary=binary, indent=None if args.compact else 2)
    if args.output == "-":
        if binary:
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data + "\n")
        return 0
    try:
        with atomic_write(args.output, "wb") as f:  # a temporary file renamed over the output once complete
            f.write(data if binary else (data + "\n").encode("utf-8"))
    except OSError as e:
        return _fail(f"{args.output}: {e.strerror or e}")
    return 0


# ---- bake ------------------------------------------------------------------

def _positive(kind):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}")
        if not v > 0 or not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return v
    return parse


def _fps(text):
    """--fps: positive, finite and at least 1e-9, so that a frame step 1/fps is one the runtime
    advances by (|dt| <= 1e9 s; README "Security and limits")."""
    v = _positive(float)(text)
    if v < 1e-9:
        raise argparse.ArgumentTypeError(f"expected at least 1e-9 frames per second, got {text!r}")
    return v


def _selection(names: Optional[List[str]], everything: bool):
    from .pipeline import ALL
    return ALL if everything else (names or None)


def _client(args):
    """A Dask client for --dask (None without it); the caller closes it."""
    if args.dask is None:
        return None
    from . import pipeline
    return pipeline.connect(args.dask, workers=args.workers)


def _report(args, records, what) -> int:
    """Print the manifest (--json) or one line per task; write --manifest; the exit code."""
    from . import pipeline
    from .atomic import write_text
    code = 0
    for r in records:
        if r["error"]:
            print(f"openbone: error: {r['input']}: {r['error']}", file=sys.stderr)
            code = 2
    if args.json:
        sys.stdout.write(pipeline.manifest_json(records) + "\n")
    elif not args.quiet:
        for r in records:
            if not r["error"]:
                print(what(r))
    if args.manifest:
        try:
            write_text(args.manifest, pipeline.manifest_json(records) + "\n")
        except OSError as e:
            return _fail(f"{args.manifest}: {e.strerror or e}")
    return code


def _say_spine_rigs(rigs) -> None:
    """Once per Spine rig: it is imported on the fly (where each task loads it)."""
    from .spine import find_atlas, rig_kind
    from .spine.source import KIND_NAMES
    for rig in rigs:
        try:
            kind = rig_kind(rig)
        except OSError:
            continue  # the pipeline reports it
        if kind:
            atlas = find_atlas(rig)
            print(f"openbone: {rig}: imported from a {KIND_NAMES[kind]} "
                  f"({'atlas ' + os.path.basename(atlas) if atlas else 'no atlas'})", file=sys.stderr)


def _run_pipeline(args, fn, **kw) -> int:
    from . import pipeline
    _say_spine_rigs(kw.get("rigs") or [])
    try:
        client = _client(args)
    except (ImportError, OSError, ValueError) as e:
        return _fail(f"--dask: {e}")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            records = fn(client=client, **kw)
        for msg in sorted({str(w.message) for w in caught}):
            print(f"openbone: warning: {msg}", file=sys.stderr)
    except pipeline.PlanError as e:
        return _fail(str(e))
    finally:
        if client is not None:
            pipeline.close(client)
    return records


def cmd_bake(args) -> int:
    from . import pipeline
    for rig in args.rigs:
        if not os.path.isfile(rig):
            return _fail(f"{rig}: no such file")
    fmt = args.format or ("zarr" if args.output.rstrip("/").endswith(".zarr") else "npz")
    records = _run_pipeline(args, pipeline.bake, rigs=args.rigs, output=args.output,
                            animations=_selection(args.animation, args.all_animations),
                            skins=_selection(args.skin, args.all_skins), fps=args.fps, seconds=args.seconds,
                            frames=args.frames, format=fmt, draw=not args.no_draw, slots=not args.no_slots,
                            overwrite=args.overwrite, jobs=args.jobs,
                            progress=True if args.progress else None)
    if isinstance(records, int):
        return records
    return _report(args, records, lambda r: (
        f"{r['input']}: {r['frames']} frames of {r['animation'] or 'the setup pose'}"
        f"{' (skin ' + r['skin'] + ')' if r['skin'] else ''} ({r['bones']} bones"
        f"{', draw list' if r['draw'] else ''}) -> {r['output']}"))


def _size(text):
    m = re.fullmatch(r"(\d+)x(\d+)", text.strip())
    if not m or int(m.group(1)) <= 0 or int(m.group(2)) <= 0:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def cmd_render(args) -> int:
    from . import pipeline
    try:
        from .render import require_skia
        require_skia()
    except ImportError as e:
        return _fail(str(e))
    for rig in args.rigs:
        if not os.path.isfile(rig):
            return _fail(f"{rig}: no such file")
    opts = dict(bones=not args.no_bones, attachments=not args.no_attachments, boxes=not args.no_boxes,
                background=None if args.transparent else (args.background or "doc"), scale=args.scale,
                fit=args.fit if args.sheet is None else True, size=args.size, columns=args.columns)
    if args.sheet is not None:
        opts.update(bones=args.bones_on_sheet, boxes=False, background=None)
    records = _run_pipeline(args, pipeline.render, rigs=args.rigs, output=args.sheet or args.output,
                            animations=_selection(args.animation, args.all_animations),
                            skins=_selection(args.skin, args.all_skins), frames=args.frames, fps=args.fps,
                            sheet=args.sheet is not None, overwrite=args.overwrite, jobs=args.jobs,
                            progress=True if args.progress else None, **opts)
    if isinstance(records, int):
        return records

    def line(r):
        if r["kind"] == "sheet":
            return (f"{r['output']}: a sprite sheet of {r['frames']} frames ({', '.join(r['animations'])}), "
                    f"{r['size'][0]}x{r['size'][1]}; frame table {r['table']}")
        ext = os.path.splitext(r["output"])[1].lower()
        if ext == ".svg":
            return f"{r['output']}: an SVG of 1 frame"
        what = "an animation of" if ext in (".gif", ".mp4") else ("a sheet of" if r["frames"] > 1 else "")
        w, h = r["size"]
        return (f"{r['output']}: {what + ' ' if what else ''}{r['frames']} frame{'s' if r['frames'] != 1 else ''} "
                f"of {w}x{h}")
    return _report(args, records, line)


def _pipeline_options(p, what: str) -> None:
    """The options bake and render share: selection, outputs, scale-out, manifest."""
    p.add_argument("-a", "--animation", action="append", metavar="NAME",
                   help="animation name or id; repeat for several" + (" (default: the rig's first)"
                                                                      if what == "bake" else
                                                                      " (default: the setup pose)"))
    p.add_argument("--all-animations", action="store_true", help="every animation of each rig")
    p.add_argument("--skin", action="append", metavar="NAME", help="skin name or id; repeat for several "
                                                                  "(default: no skin)")
    p.add_argument("--all-skins", action="store_true", help="every skin of each rig")
    p.add_argument("--overwrite", action="store_true", help="replace existing outputs (default: refuse, exit 2)")
    p.add_argument("--json", action="store_true",
                   help="print the manifest: one record per task (input, skin, animation, frames, output, "
                        "sha256, time, error)")
    p.add_argument("--manifest", metavar="FILE", help="also write the manifest to FILE (JSON)")
    p.add_argument("-j", "--jobs", type=_positive(int), default=1, help="run tasks in N local processes")
    p.add_argument("--dask", nargs="?", const="local", metavar="ADDRESS",
                   help="run tasks on Dask: alone, a distributed.LocalCluster on this machine; or the "
                        "scheduler address of an existing cluster (tcp://scheduler:8786)")
    p.add_argument("--workers", type=_positive(int), help="LocalCluster workers for --dask (default: CPU count)")
    p.add_argument("--progress", action="store_true", help="show a progress bar of tasks (tqdm)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


OUTPUT_HELP = ("the output, or a directory, or a pattern with {rig} (file stem), {relpath} (path below the "
               "inputs' common directory, no extension), {skin}, {animation}; in a directory the name is "
               "{rig}[-{skin}][-{animation}] (skin when --skin/--all-skins, animation when several)")


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line on stderr (exit code 2)."""

    def error(self, message):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from ._version import __version__

    p = _Parser(prog="openbone", description="OpenBone runtime tools.")
    p.add_argument("--version", action="version", version=f"openbone {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    c = sub.add_parser("conformance", help="run and compare conformance cases (FORMAT.md)")
    csub = c.add_subparsers(dest="action", metavar="ACTION")
    csub.required = True
    r = csub.add_parser("run", help="run every case of a case file and write the samples")
    r.add_argument("cases", help="case file (JSON)")
    r.add_argument("-o", "--output", help="sample file to write (default: standard output)")
    r.add_argument("--pretty", action="store_true", help="indent the JSON")
    r.set_defaults(func=cmd_conformance_run)
    cp = csub.add_parser("compare", help="compare two sample files with the §1 tolerances")
    cp.add_argument("expected")
    cp.add_argument("actual")
    cp.set_defaults(func=cmd_conformance_compare)

    st = sub.add_parser("selftest", help="run the conformance suite bundled with the package (exit 1 on a failure)",
                        description="Runs every case file shipped in openbone.selftest.suite and compares it with "
                                    "its expected samples at the §1 tolerances (also: pytest --pyargs openbone.selftest).")
    st.add_argument("-v", "--verbose", action="store_true", help="one line per passing case too")
    st.set_defaults(func=lambda args: __import__("openbone.selftest", fromlist=["main"]).main(verbose=args.verbose))

    i = sub.add_parser("info", help="summarise a rig",
                       description="Summarise a rig: bones, slots, skins, animations with durations, "
                                   "constraints by kind, state machines, images and atlas pages, and warnings "
                                   "(what the loader dropped, unreachable states, unused images).",
                       epilog="example: openbone info examples/hero.obone")
    i.add_argument("rig", help=".obone or .obonb file, or a Spine .json / .skel (imported on the fly)")
    i.add_argument("-v", "--verbose", action="store_true", help="also list the bone tree and the slots")
    i.add_argument("--json", action="store_true", help="the summary as JSON")
    i.set_defaults(func=cmd_info)

    v = sub.add_parser("validate", help="check rigs' references; exit 1 when one is broken",
                       description=VALIDATE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example: openbone validate examples/hero.obone --json")
    v.add_argument("rigs", nargs="+", metavar="RIG", help=".obone / .obonb, or Spine .json / .skel (imported)")
    v.add_argument("--json", action="store_true", help="a JSON report for pipelines")
    v.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    v.add_argument("-q", "--quiet", action="store_true", help="print only broken references and errors")
    v.set_defaults(func=cmd_validate)

    cv = sub.add_parser("convert", help="convert between .obone (JSON) and .obonb (binary); import Spine",
                        description="Convert a rig between .obone JSON (indented, or --compact) and .obonb "
                                    "binary, losslessly under the binary rules (float32 values widen to 7 "
                                    "significant digits; everything else is kept as written).  The output is "
                                    "written to a temporary file and renamed, so a failure leaves an existing "
                                    "file intact. A Spine skeleton (.json or .skel 4.2, told apart by content) "
                                    "is imported, textured from its .atlas; what could not be mapped exactly is "
                                    "printed as warnings.",
                        epilog="example: openbone convert examples/hero.obone /tmp/hero.obonb")
    cv.add_argument("input", help=".obone, .obonb, or a Spine .json / .skel (read from the content)")
    cv.add_argument("output", help=".obonb binary, .obone / .json JSON (other extensions: exit 2 unless --format); "
                                   "- for stdout")
    cv.add_argument("--compact", action="store_true", help="compact JSON instead of indented")
    cv.add_argument("--format", choices=["json", "binary"], help="override the format the extension picks")
    cv.add_argument("--curves", choices=["spine", "exact", "linear"],
                    help="Spine input: bezier curves sampled as spine-core does (default), solved exactly, or "
                         "baked into linear keys")
    cv.add_argument("--pose-model", choices=["spine", "openbone"],
                    help="Spine input: pose with spine-core's rules (default) or OpenBone's")
    cv.add_argument("--atlas", help="Spine input: the .atlas (default: found beside it by Spine's naming)")
    cv.add_argument("--no-atlas", action="store_true", help="Spine input: no atlas (untextured)")
    cv.set_defaults(func=cmd_convert)

    b = sub.add_parser("bake", help="bake animations into NumPy (.npz) or Zarr arrays",
                       description="Play each ANIMATION (looping, track 0) of each rig and skin and record every "
                                   "frame at --fps: times (summed as the runtime sums them), world matrices "
                                   "(frames, bones, 6) [a b c d x y], slot colours, draw order and the draw-list "
                                   "vertices/uvs/indices per frame. Frame 0 is the pose at time 0; --seconds T "
                                   "gives ceil(T*fps) frames (default: the animation's duration, so a loop ends "
                                   "one frame before it wraps). One task per (rig, skin, animation), run here, "
                                   "in --jobs processes or on Dask (--dask); outputs are planned first "
                                   "(collisions and existing files are exit 2 before anything is written) and "
                                   "written atomically. See openbone/bake.py for every array.",
                       epilog="Exit code 2 when a rig cannot be read, names no such animation/skin, or a task "
                              "failed (the others still run). examples: openbone bake examples/hero.obone "
                              "--animation walk -o walk.npz;  openbone bake c1/hero.obone c2/hero.obone "
                              "--all-animations -o 'out/{relpath}-{animation}.npz' --dask --json")
    b.add_argument("rigs", nargs="+", metavar="RIG",
                   help="one or more .obone / .obonb files, or Spine .json / .skel (imported on the fly)")
    b.add_argument("--fps", type=_fps, help="frames per second (default: the rig's fps)")
    b.add_argument("--seconds", type=_positive(float), help="length to bake (default: the animation's)")
    b.add_argument("--frames", type=_positive(int), help="number of frames (overrides --seconds)")
    b.add_argument("-o", "--output", required=True, help=OUTPUT_HELP + "; .npz or .zarr")
    b.add_argument("--format", choices=["npz", "zarr"],
                   help="npz (default) or zarr (chunked arrays a Dask array reads lazily); default from -o")
    b.add_argument("--no-draw", action="store_true", help="leave out the draw-list arrays")
    b.add_argument("--no-slots", action="store_true", help="leave out slot colours and draw order")
    _pipeline_options(b, "bake")
    b.set_defaults(func=cmd_bake)

    rn = sub.add_parser("render", help="draw poses: PNG/WebP (a frame or a grid), GIF, MP4, SVG, sprite sheets",
                        description="Draw the pose at the given frames with skia: draw-list items textured when "
                                    "the images load (data: URLs or files next to the rig), else filled with "
                                    "their colours, blend modes, clipping, two-colour tint; clipping masks and "
                                    "bounding boxes outlined, bones on top. Frames count like `openbone bake`: "
                                    "frame k is k steps of 1/fps after time 0. .gif and .mp4 play the frames; "
                                    ".png/.webp/.jpg get one image (a grid for several frames); .svg is an "
                                    "untextured vector view of one frame. --sheet packs every frame of the "
                                    "selected animations into one texture with a JSON frame table (frame rects, "
                                    "pivots, durations) next to it.",
                        epilog="examples: openbone render examples/hero.obone --animation walk --frames 0 "
                               "-o pose.png;  openbone render examples/hero.obone --all-animations "
                               "--sheet hero.png")
    rn.add_argument("rigs", nargs="+", metavar="RIG",
                    help=".obone / .obonb, or Spine .json / .skel (imported, textured from the atlas beside it)")
    rn.add_argument("--frames", help="frame numbers: 0 | 0,10,20 | 0:30 | 0:30:5 | all (default 0; all for --sheet)")
    rn.add_argument("--fps", type=_fps, help="frames per second (default: the rig's fps)")
    out = rn.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output", help=OUTPUT_HELP + "; .png .webp .jpg .gif .mp4 .svg")
    out.add_argument("--sheet", metavar="SHEET", help="write a sprite sheet (.png/.webp; a pattern like -o) and "
                                                     "its frame table (.json beside it) instead of -o")
    rn.add_argument("--bones-on-sheet", action="store_true", help="draw the bones on sheet frames too")
    rn.add_argument("--scale", type=_positive(float), default=1.0, help="pixels per artboard pixel (default 1)")
    rn.add_argument("--size", type=_size, help="resize every frame to WIDTHxHEIGHT")
    rn.add_argument("--fit", action="store_true",
                    help="frame what is drawn (the draw list's bounds; the bones when nothing is drawn) "
                         "instead of the artboard")
    rn.add_argument("--columns", type=_positive(int), help="frames per row of a grid")
    rn.add_argument("--background", help="hex colour (default: the rig's background)")
    rn.add_argument("--transparent", action="store_true", help="no background")
    rn.add_argument("--no-bones", action="store_true", help="do not draw the bones")
    rn.add_argument("--no-attachments", action="store_true", help="do not draw the draw list")
    rn.add_argument("--no-boxes", action="store_true", help="do not outline clipping masks and bounding boxes")
    _pipeline_options(rn, "render")
    rn.set_defaults(func=cmd_render)

    from .toon.cli import add_parser as add_toon_parser  # openbone toon ... (Jabbertoon)
    add_toon_parser(sub)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `openbone info RIG | head`
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        return _fail("interrupted", 130)


if __name__ == "__main__":
    sys.exit(main())
