"""Pictures of rigs performing (issue 15 item 4): the stage of a frame (§7.8: placement x y h facing,
order, caption, background, grade) and ``openbone toon render``.  Expected pixels come from the
placement rules of §7.2 worked out by hand (where the feet and the head must be), from mirror
symmetry, and from the textures' own colours."""
import json
import math
import os

import numpy as np
import pytest

import openbone
import openbone.examples
from conftest import reference
from openbone import toon

skia = pytest.importorskip("skia", reason="the pictures need skia-python (render extra)")
Image = pytest.importorskip("PIL.Image", reason="the pictures need Pillow")

from openbone.cli import main  # noqa: E402
from openbone.toon.stage import Stage, character_affine, parse_colour, place_colours  # noqa: E402

HERO = str(openbone.examples.path("hero.obone"))
SPROUT = str(openbone.examples.path("sprout.json"))
ATLAS = str(openbone.examples.path("sprout.atlas"))
REST = {"dx": 0, "dy": 0, "sx": 1, "sy": 1, "rot": 0, "parts": {}, "lift": {}, "mouth": 0, "blink": 0, "mood": None,
        "reach": {}, "view": None}


def frame(chars, order=None, **kw):
    f = {"t": 0, "scene": "s", "place": None, "background": None, "grade": "normal", "caption": None,
         "characters": {cid: dict(dict(x=0.5, y=0.92, h=0.5, facing=1, visible=True, talking=0), **c)
                        for cid, c in chars.items()},
         "order": order or list(chars)}
    f.update(kw)
    return f


def posed(char, facing=1, h=0.5):
    char.apply_pose(REST, 0, facing=facing, h=h)
    return char


def near(a, colour, tol=12):
    """Pixels within tol of a colour (texture filtering blends the page's texels a little)."""
    return np.all(np.abs(a[..., :3].astype(int) - colour) <= tol, axis=2)


def ink(a, background=(255, 255, 255)):
    """Rows and columns holding something other than the background."""
    mask = np.any(np.abs(a[..., :3].astype(int) - background) > 8, axis=2)
    ys, xs = np.nonzero(mask)
    return ys.min(), ys.max(), xs.min(), xs.max()


# ---- the stage ---------------------------------------------------------------------

def test_placement_puts_the_feet_on_the_line_and_the_height_at_h():
    """hero (214 units from the feet to the top of the head) placed at x 0.25, y 0.8, h 0.5 on a
    400x300 stage: drawn 150 px tall, its feet at row 240, its origin at column 100."""
    char = posed(toon.RigCharacter(HERO))
    st = Stage(400, 300, {"A": char}, supersample=1)
    a = st.render_array(frame({"A": {"x": 0.25, "y": 0.8, "h": 0.5}}))
    top, bottom, left, right = ink(a)
    assert bottom == pytest.approx(240, abs=1.5) and top == pytest.approx(240 - 150, abs=1.5)
    m = character_affine(char, 0.25, 0.8, 0.5, 400, 300)
    assert m[4] == pytest.approx(100) and m[5] == pytest.approx(300 - 240) and m[3] == pytest.approx(150 / 214)
    assert left < 100 < right


def test_facing_mirrors_about_the_placement_and_order_draws_back_to_front():
    hero_r = posed(toon.RigCharacter(HERO), facing=1)
    st = Stage(400, 300, {"A": hero_r}, supersample=1)
    right = st.render_array(frame({"A": {"x": 0.5, "facing": 1}}))
    hero_l = posed(toon.RigCharacter(HERO), facing=-1)
    left = Stage(400, 300, {"A": hero_l}, supersample=1).render_array(frame({"A": {"x": 0.5, "facing": -1}}))
    # x = 0.5 of 400 px: column c of one is column 399 - c of the other (pixel centres mirror about 200)
    d = np.abs(left[:, ::-1].astype(int) - right.astype(int))
    assert d.max() <= 8 and d.mean() < 0.05   # anti-aliased edges aside
    assert np.abs(left.astype(int) - right.astype(int)).max() > 100   # not symmetric by itself
    # order: the later drawn is in front (a sprout's pink bloom over hero's head, or not)
    sprout = posed(toon.RigCharacter(SPROUT), h=0.3)
    st = Stage(400, 300, {"A": hero_r, "B": sprout}, supersample=1)
    chars = {"A": {"x": 0.5}, "B": {"x": 0.5, "y": 0.75, "h": 0.3}}
    f = frame(chars)
    front = near(st.render_array(f), (235, 90, 140), 4)
    assert front.sum() > 20
    behind = near(st.render_array(frame(chars, order=["B", "A"])), (235, 90, 140), 40)
    assert behind.sum() < front.sum() / 2   # the bloom behind hero's head box
    # not visible: not drawn
    hidden = st.render_array(frame({"A": {"x": 0.5, "visible": False}, "B": {"x": 0.5, "visible": False}}))
    assert (hidden[..., :3] == 255).all()


def test_background_caption_and_grade():
    assert parse_colour("#336699") == (0x33, 0x66, 0x99, 255) and parse_colour("skyblue") == (135, 206, 235, 255)
    assert parse_colour("park") is None
    assert place_colours("castle") == place_colours("castle")   # a name's own colours, the same every time
    char = posed(toon.RigCharacter(HERO))
    st = Stage(320, 180, {"A": char}, supersample=1)
    blue = st.render_array(frame({"A": {"x": 0.2}}, background="#336699"))
    assert tuple(blue[5, 300][:3]) == (0x33, 0x66, 0x99)
    park = st.render_array(frame({"A": {"x": 0.2}}, background="park"))
    sky, ground = place_colours("park")
    assert tuple(park[10, 300][:3]) == sky[:3] and tuple(park[175, 300][:3]) == ground[:3]
    plain = st.render_array(frame({"A": {"x": 0.2}}))
    captioned = st.render_array(frame({"A": {"x": 0.2}}, caption="Good morning, Grump!"))
    rows = np.nonzero(np.any(plain != captioned, axis=(1, 2)))[0]
    assert len(rows) and rows.min() > 180 * 0.7   # the caption is at the bottom
    night = st.render_array(frame({"A": {"x": 0.2}}, grade="night"))
    assert night[..., :3].astype(int).sum() < 0.7 * plain[..., :3].astype(int).sum()
    odd = st.render_array(frame({"A": {"x": 0.2}}, grade="no such grade"))
    assert np.array_equal(odd, plain)


def test_stage_errors():
    with pytest.raises(ValueError, match="at least 1x1"):
        Stage(0, 10, {})
    with pytest.raises(ValueError, match="not a colour"):
        Stage(10, 10, {}, background="nowhere")



def test_stage_draws_any_frame_a_page_hands_it():
    """Stage is public: a frame built by hand may be anything; what is not a placement is not drawn,
    text is drawn as text (lone surrogates replaced), and a caption of a million characters costs
    four lines."""
    char = posed(toon.RigCharacter(HERO))
    st = Stage(64, 48, {"A": char}, supersample=1)
    blank = st.render_array({})
    for f in ({"characters": [1, 2]}, {"characters": {"A": 5}}, {"order": [1, None, ["A"]], "characters": {}},
              {"order": "A", "characters": {"A": {"x": "a", "y": 0.9, "h": 0.5}}}, {"background": {"a": 1}},
              {"grade": [1]}, {"caption": 12345}, {"caption": "a\x00b\ud800"}, {"caption": "ab " * 300000},
              {"characters": {"A": {"x": 0.5, "y": 0.9, "h": 0.5, "facing": "left", "visible": "no"}}}):
        a = st.render_array(f)
        assert a.shape == blank.shape


# ---- openbone toon render -----------------------------------------------------------

WAVE = {"v": 1, "kind": "behaviour", "scripts": [{"body": [
    {"op": "setPart", "part": "head", "deg": 15, "over": 0.3},
    {"op": "reach", "part": "left hand", "at": "head", "dx": 0.09, "dy": -0.065, "over": 0.4},
    {"op": "hop", "hz": 2}]}]}


@pytest.fixture
def wave(tmp_path):
    p = tmp_path / "wave.json"
    p.write_text(json.dumps(WAVE))
    return str(p)


def test_render_a_behaviour_to_gif_png_and_mp4(wave, tmp_path, capsys):
    gif = tmp_path / "w.gif"
    assert main(["toon", "render", wave, "--rig", HERO, "--seconds", "1", "--fps", "12", "-o", str(gif)]) == 0
    with Image.open(gif) as im:
        assert im.n_frames == 12
    assert "an animation of 12 frames" in capsys.readouterr().out
    png = tmp_path / "w.png"
    assert main(["toon", "render", wave, "--rig", HERO, "--seconds", "1", "--frames", "0,6", "--columns", "2",
                 "-q", "-o", str(png)]) == 0
    with Image.open(png) as im:
        w, h = im.size
    mp4 = tmp_path / "w.mp4"
    assert main(["toon", "render", wave, "--rig", HERO, "--seconds", "0.5", "-q", "-o", str(mp4)]) == 0
    assert mp4.stat().st_size > 1000 and mp4.read_bytes()[4:8] == b"ftyp"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.gif", "w.mp4", "w.png", "wave.json"]   # no temp files


def test_render_frames_are_the_runtime_poses(wave, tmp_path):
    """Frame 6 of 12 fps is the rig at t = 0.5 exactly: the same picture as drawing
    RigCharacter posed by the runtime at 0.5 by hand."""
    from openbone.toon.stage import Solo
    out = tmp_path / "f.png"
    assert main(["toon", "render", wave, "--rig", HERO, "--seconds", "1", "--fps", "12", "--frames", "6",
                 "--facing", "right", "-q", "-o", str(out)]) == 0
    char = toon.RigCharacter(HERO)   # facing right: mirrored (hero's art faces left)
    rt = toon.create_runtime()
    rt.add_character("c", rig=char)
    rt.start_behaviour("c", WAVE)
    snaps = []
    for k in range(12):
        rt.step_to(k / 12)
        if k == 6:
            snaps.append(Solo.snapshot(char))
    solo = Solo()
    want = np.asarray(solo.render(snaps[0], solo.view(snaps, char)))
    with Image.open(out) as im:
        got = np.asarray(im.convert("RGBA"))
    assert np.array_equal(got, want)


def test_facing_left_and_right_are_mirror_images(wave, tmp_path):
    paths = {}
    for facing in ("left", "right"):
        paths[facing] = tmp_path / f"{facing}.png"
        assert main(["toon", "render", wave, "--rig", HERO, "--seconds", "1", "--frames", "5", "--facing", facing,
                     "-q", "-o", str(paths[facing])]) == 0
    with Image.open(paths["left"]) as a, Image.open(paths["right"]) as b:
        a, b = np.asarray(a.convert("RGB")).astype(int), np.asarray(b.convert("RGB")).astype(int)
    assert a.shape == b.shape
    assert np.abs(a[:, ::-1] - b).mean() < 2 and np.abs(a - b).mean() > 5


def test_render_textured_from_the_atlas(wave, tmp_path):
    """The sprout (the project's own Spine-format rig) with its atlas: the picture has the page's
    colours (the bloom's pink); --untextured fills the items with flat colours instead."""
    out, flat = tmp_path / "t.png", tmp_path / "u.png"
    args = ["toon", "render", wave, "--rig", SPROUT, "--atlas", ATLAS, "--seconds", "1", "--frames", "0", "-q"]
    assert main(args + ["-o", str(out)]) == 0
    assert main(args + ["--untextured", "-o", str(flat)]) == 0
    with Image.open(out) as a, Image.open(flat) as b:
        a, b = np.asarray(a.convert("RGB")), np.asarray(b.convert("RGB"))
    assert near(a, (235, 90, 140)).sum() > 100 and near(b, (235, 90, 140), 40).sum() == 0


def test_render_errors(wave, tmp_path, capsys):
    out = str(tmp_path / "x.gif")

    def fails(*args, match):
        assert main(["toon", "render", *args]) == 2
        assert match in capsys.readouterr().err
        assert not os.path.exists(out)
    fails(wave, "-o", out, match="a behaviour needs --rig")
    fails(wave, "--rig", str(tmp_path / "nope.obone"), "-o", out, match="no such file")
    fails(wave, "--rig", HERO, "--atlas", ATLAS, "-o", out, match="an atlas applies to a Spine skeleton")
    fails(wave, "--rig", HERO, "--cast", "A=" + HERO, "-o", out, match="--cast is for cartoons")
    fails(wave, "--rig", HERO, "-o", str(tmp_path / "x.txt"), match="unknown output format")
    fails(wave, "--rig", HERO, "--frames", "99", "--seconds", "1", "-o", str(tmp_path / "x.png"), match="frame 99")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"v": 1, "kind": "behaviour", "scripts": [{"body": [{"op": "fly"}]}]}))
    fails(str(bad), "--rig", HERO, "-o", out, match="invalid program")
    roles = tmp_path / "roles.json"
    roles.write_text(json.dumps({"root": "root", "height": 1, "parts": {"head": "skull"}}))
    fails(wave, "--rig", HERO, "--roles", str(roles), "-o", out, match="no bone named")


def test_the_readme_picture_is_made_by_the_readme_command(tmp_path, monkeypatch):
    """docs/hero-wave.png is what the README's own `openbone toon render ... -o /tmp/hero-wave.png`
    draws (run here from the repository root, written to tmp_path instead of /tmp)."""
    import re
    import shlex
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    blocks = re.findall(r"```sh\n(.*?)\n```", (root / "README.md").read_text(), re.S)
    commands = [c.strip() for b in blocks for c in b.split("&&") if "toon render" in c and "hero-wave.png" in c]
    assert len(commands) == 1 and "![The hero waving](docs/hero-wave.png)" in (root / "README.md").read_text()
    argv = shlex.split(commands[0])
    assert argv[:3] == ["openbone", "toon", "render"] and argv[argv.index("-o") + 1] == "/tmp/hero-wave.png"
    argv[argv.index("-o") + 1] = str(tmp_path / "hero-wave.png")
    monkeypatch.chdir(root)
    assert main(argv[1:] + ["-q"]) == 0
    with Image.open(tmp_path / "hero-wave.png") as a, Image.open(root / "docs" / "hero-wave.png") as b:
        a, b = np.asarray(a.convert("RGBA")).astype(int), np.asarray(b.convert("RGBA")).astype(int)
    assert a.shape == b.shape and np.abs(a - b).max() <= 2   # skia's anti-aliasing aside, the same picture


# ---- openbone toon render --cast: the stage of a real cartoon (rt.frame()) -------------------------

def _story(tmp_path, cast, *body, place=None):
    hat = {"on": "scene", "name": "s"}
    if place:
        hat["place"] = place
    p = tmp_path / "story.json"
    p.write_text(json.dumps({"v": 1, "kind": "cartoon", "cast": cast, "scripts": [{"hat": hat, "body": list(body)}]}))
    return str(p)


def _still(tmp_path, story, cast, frame, *extra):
    out = tmp_path / f"f{frame}.png"
    assert main(["toon", "render", story, "--cast", cast, "--size", "400x300", "--frames", str(frame),
                 "-q", "-o", str(out), *extra]) == 0
    with Image.open(out) as im:
        return np.asarray(im.convert("RGB"))


def test_render_cast_places_faces_and_orders_by_the_cartoons_frames(tmp_path):
    """hero cast at x 0.25, y 0.8, h 0.5 on a 400x300 stage: feet at row 240, 150 px tall, about
    column 100 (§7.2 by hand); a place turning it to face left at 0.5 s mirrors it about its column
    (frame 18 at 24 fps against frame 0, reflected); B (the sprout) is drawn after A (order)."""
    story = _story(tmp_path, {"A": {"at": {"x": 0.5, "y": 0.8, "h": 0.5, "facing": 1}}},
                   {"op": "wait", "for": 0.5}, {"op": "place", "who": "A", "facing": -1}, {"op": "wait", "for": 0.5})
    first, turned = _still(tmp_path, story, "A=" + HERO, 0), _still(tmp_path, story, "A=" + HERO, 18)
    top, bottom, left, right = ink(first)
    assert bottom == pytest.approx(240, abs=1.5) and top == pytest.approx(90, abs=1.5) and left < 200 < right
    d = np.abs(turned[:, ::-1].astype(int) - first.astype(int))
    assert d.max() <= 8 and d.mean() < 0.05 and np.abs(turned.astype(int) - first.astype(int)).max() > 100
    shifted = _story(tmp_path, {"A": {"at": {"x": 0.25, "y": 0.8, "h": 0.5}}}, {"op": "wait", "for": 0.5})
    top, bottom, left, right = ink(_still(tmp_path, shifted, "A=" + HERO, 0))
    assert bottom == pytest.approx(240, abs=1.5) and top == pytest.approx(90, abs=1.5) and left < 100 < right < 200
    # order: A then B (the cast's order); the sprout's bloom over hero's head box
    pair = _story(tmp_path, {"A": {"at": {"x": 0.5, "y": 0.8}}, "B": {"at": {"x": 0.5, "y": 0.75, "h": 0.3}}},
                  {"op": "wait", "for": 0.5})
    a = _still(tmp_path, pair, f"A={HERO},B={SPROUT}", 0, "--atlas", "B=" + ATLAS)
    assert near(a, (235, 90, 140), 4).sum() > 20


def test_render_cast_draws_the_place_and_the_caption(tmp_path):
    """A scene at the park: its sky and ground (stage.place_colours), the say line as the caption at
    the bottom while it is spoken, gone after it; --no-caption leaves it out."""
    story = _story(tmp_path, {"A": {"at": {"x": 0.2}}}, {"op": "say", "who": "A", "text": "Good morning!"},
                   {"op": "wait", "for": 1}, place="park")
    sky, ground = place_colours("park")
    spoken, after = _still(tmp_path, story, "A=" + HERO, 6), _still(tmp_path, story, "A=" + HERO, 40)
    assert tuple(spoken[20, 300]) == sky[:3] and tuple(spoken[295, 300]) == ground[:3]
    rows = np.nonzero(np.any(spoken != after, axis=(1, 2)))[0]
    assert len(rows) and rows.min() > 300 * 0.7   # only the caption differs, at the bottom
    quiet = _still(tmp_path, story, "A=" + HERO, 6, "--no-caption")
    assert np.array_equal(quiet, after)


def test_render_cast_errors(tmp_path, capsys):
    story = _story(tmp_path, {"A": {"at": {"x": 0.3}}, "B": "any"}, {"op": "place", "who": "A", "x": 0.7, "over": 1})
    out = str(tmp_path / "x.gif")

    def fails(*args, match):
        assert main(["toon", "render", story, *args, "-o", out]) == 2
        assert match in capsys.readouterr().err
        assert not os.path.exists(out)
    fails("--cast", "A=" + HERO, match="no rig for cast member 'B'")
    fails("--cast", f"A={HERO},C={HERO}", match="--cast names 'C', not in the program's cast")
    fails("--rig", HERO, "--facing", "left", match="--facing is for a behaviour")
    fails("--rig", HERO, "--roles", "C=x.json", match="'C' is not in the program's cast")
    assert main(["toon", "render", story, "--rig", HERO, "--fps", "4", "-q", "-o", out]) == 0   # --rig for everyone
    with Image.open(out) as im:
        assert im.n_frames == 4   # the cartoon's 1 s at 4 fps (A gliding: no two frames alike)


def test_a_facing_glide_draws_a_turn(tmp_path):
    """place A facing -1 over 1 s, linear: the frame's facing goes 1 → 0 → −1 (§7.2 "a glide through
    0 turns it round"); the art is drawn |facing| wide about its placement column and mirrored once
    facing is below 0: at 0.25 s half as wide as at rest, at 0.75 s the same half width mirrored."""
    story = _story(tmp_path, {"A": {"at": {"x": 0.5, "y": 0.8, "h": 0.5}}},
                   {"op": "place", "who": "A", "facing": -1, "over": 1, "ease": "linear"}, {"op": "wait", "for": 0.2})
    rest, quarter, three = (_still(tmp_path, story, "A=" + HERO, k, "--fps", "4") for k in (0, 1, 3))
    _, _, l0, r0 = ink(rest)
    _, _, l1, r1 = ink(quarter)
    assert (r1 - l1 + 1) == pytest.approx((r0 - l0 + 1) / 2, abs=2)
    assert (l1 - 200) == pytest.approx((l0 - 200) / 2, abs=1.5) and (r1 - 200) == pytest.approx((r0 - 200) / 2, abs=1.5)
    d = np.abs(three[:, ::-1].astype(int) - quarter.astype(int))
    assert d.max() <= 8 and d.mean() < 0.05


def test_render_with_a_roles_file_is_the_guessed_picture(wave, tmp_path):
    """openbone toon roles RIG -o roles.json, then --roles roles.json: the role map printed is the one
    guessed, so the picture is the same; editing it (the head's limit) changes the picture."""
    roles = tmp_path / "hero.roles.json"
    assert main(["toon", "roles", HERO, "-o", str(roles)]) == 0
    args = ["toon", "render", wave, "--rig", HERO, "--seconds", "1", "--frames", "6", "--fps", "12", "-q"]
    guessed, given, limited = (tmp_path / f"{n}.png" for n in ("guessed", "given", "limited"))
    assert main(args + ["-o", str(guessed)]) == 0
    assert main(args + ["--roles", str(roles), "-o", str(given)]) == 0
    m = json.loads(roles.read_text())
    m.setdefault("limits", {})["head"] = {"min": -1, "max": 1}   # the wave's setPart head 15 held to 1°
    roles.write_text(json.dumps(m))
    assert main(args + ["--roles", str(roles), "-o", str(limited)]) == 0
    with Image.open(guessed) as a, Image.open(given) as b, Image.open(limited) as c:
        a, b, c = (np.asarray(x.convert("RGB")) for x in (a, b, c))
    assert np.array_equal(a, b) and (a.shape != c.shape or not np.array_equal(a, c))


@pytest.mark.parametrize("rig", ["spineboy-pro", "raptor-pro"])
def test_render_a_spine_binary_textured_from_its_atlas(wave, tmp_path, rig):
    """A Spine .skel with its atlas (named as Spine names it, beside the skeleton): a textured picture
    (the page's many colours), against --untextured's few flat ones."""
    skel = reference("spine", "assets", rig + ".skel")
    atlas = reference("spine", "assets", rig.replace("-pro", "") + ".atlas")
    out, flat = tmp_path / "t.png", tmp_path / "u.png"
    args = ["toon", "render", wave, "--rig", str(skel), "--atlas", str(atlas), "--seconds", "0.5", "--frames", "3",
            "--size", "240x240", "-q"]
    assert main(args + ["-o", str(out)]) == 0
    assert main(args + ["--untextured", "-o", str(flat)]) == 0
    with Image.open(out) as a, Image.open(flat) as b:
        ca = len(np.unique(np.asarray(a.convert("RGB")).reshape(-1, 3), axis=0))
        cb = len(np.unique(np.asarray(b.convert("RGB")).reshape(-1, 3), axis=0))
    assert ca > 2000 and ca > 4 * cb, (ca, cb)


def test_placements_a_formula_spoils_are_not_drawn(tmp_path):
    """x = 0/0, h = 1/0, h = 1e300, h = −1 (formulas are known only when they run, §7.2): no picture of
    them, no NumPy warning, no error; a sane placement afterwards is drawn again."""
    import warnings
    story = _story(tmp_path, {"A": {"at": {"x": 0.5, "y": 0.8}}},
                   {"op": "place", "who": "A", "x": "=0/0", "h": "=1/0"}, {"op": "wait", "for": 0.5},
                   {"op": "place", "who": "A", "x": 0.5, "h": "=1e300"}, {"op": "wait", "for": 0.5},
                   {"op": "place", "who": "A", "h": "=-1"}, {"op": "wait", "for": 0.5},
                   {"op": "place", "who": "A", "h": 0.5}, {"op": "wait", "for": 0.5})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stills = [_still(tmp_path, story, "A=" + HERO, k, "--fps", "4") for k in (0, 2, 4, 6)]
    assert all((s == 255).all() for s in stills[:3])
    assert ink(stills[3])[1] == pytest.approx(240, abs=1.5)


def test_render_cast_reads_speech_and_packs(tmp_path):
    """--speech lines.json sets a line's length (§7.4: the cartoon lasts as long as its lines: 2 s
    at 4 fps is 8 frames), --packs a folder resolves a does' pack id (§7.5: A hops; without the
    pack it falls back to c4c:beh:idle, or nothing)."""
    story = _story(tmp_path, {"A": {"at": {"x": 0.5, "y": 0.8}}},
                   {"op": "does", "who": "A", "behaviour": "c4c:beh:hop"},
                   {"op": "say", "who": "A", "text": "Hop!"})
    (tmp_path / "lines.json").write_text(json.dumps({"Hop!": 2}))
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "hop.json").write_text(json.dumps({"v": 1, "kind": "behaviour", "scripts": [{"body": [
        {"op": "move", "dy": -200, "over": 0}]}]}))
    lines = str(tmp_path / "lines.json")
    plain = _still(tmp_path, story, "A=" + HERO, 7, "--fps", "4", "--speech", lines, "--no-caption")
    hopped = _still(tmp_path, story, "A=" + HERO, 7, "--fps", "4", "--speech", lines, "--no-caption", "--packs", str(packs))
    assert ink(plain)[1] == pytest.approx(240, abs=1.5)
    # move dy -200 px: up by 200 · min(W, H) / 1080 stage pixels (§0), 300 · 200 / 1080 ≈ 55.6
    assert ink(hopped)[1] == pytest.approx(240 - 300 * 200 / 1080, abs=1.5)
    assert main(["toon", "render", story, "--rig", HERO, "--fps", "4", "--speech", lines, "--frames", "8",
                 "-o", str(tmp_path / "x.png")]) == 2   # frames 0..7: the line's 2 s


@pytest.mark.parametrize("kind", ["behaviour", "cartoon"])
def test_stills_come_in_the_order_asked_repeats_included(wave, tmp_path, kind):
    """--frames 6,0,0 --columns 3: the sheet's tiles are frames 6, 0 and 0 (each the same picture as
    rendering that frame alone)."""
    if kind == "behaviour":
        args = [wave, "--rig", HERO, "--seconds", "1", "--fps", "12", "--facing", "right"]
    else:
        args = [_story(tmp_path, {"A": {"at": {"x": 0.5}}}, {"op": "place", "who": "A", "x": 0.7, "over": 1}),
                "--rig", HERO, "--fps", "12", "--size", "160x90"]
    sheet, one, zero = (tmp_path / f"{n}.png" for n in ("sheet", "one", "zero"))
    assert main(["toon", "render", *args, "--frames", "6,0,0", "--columns", "3", "-q", "-o", str(sheet)]) == 0
    assert main(["toon", "render", *args, "--frames", "6", "-q", "-o", str(one)]) == 0
    assert main(["toon", "render", *args, "--frames", "0", "-q", "-o", str(zero)]) == 0
    with Image.open(sheet) as s, Image.open(one) as a, Image.open(zero) as b:
        s, a, b = (np.asarray(x.convert("RGB")) for x in (s, a, b))
    h, w = a.shape[:2]
    if kind == "behaviour":   # a behaviour's view is fitted to every frame it draws: 6 alone is framed on itself
        tiles = [s[:, k * (s.shape[1] // 3):(k + 1) * (s.shape[1] // 3)] for k in range(3)]
        assert np.array_equal(tiles[1], tiles[2]) and not np.array_equal(tiles[0], tiles[1])
    else:
        assert s.shape[:2] == (h, 3 * w)
        assert np.array_equal(s[:, :w], a) and np.array_equal(s[:, w:2 * w], b) and np.array_equal(s[:, 2 * w:], b)
