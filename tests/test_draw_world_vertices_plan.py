"""Issue 17 (draw): Instance.world_vertices keeps its entries between frames and decides
them again only when the skin, the draw order, a slot's attachment name or the active
bones change (a name swap to an attachment of the same kind and vertex count is patched in
place).  Property checked here: after every step, the entries and vertices are bit for bit
those of a copy of the instance (ob_instance_copy: a new instance, whose first build
decides everything from scratch), through attachment timelines that swap, show and hide
regions (celestial stars, goblin eyes), draw-order keys (tank shoot), skin switches that
change the kinds (goblin -> goblingirl: meshes become regions) and the active bones (hero
weapon skins), host edits after advance, and a snapshot restored into the same instance.
Both kernel widths (1: the SSE2 baseline, 0: the CPU's)."""
import numpy as np
import pytest

import openbone


def entries(inst):
    v, s, a, f, c = inst._world_vertices()
    return (np.asarray(v).tobytes(), s.tolist(), a.tolist(), f.tolist(), c.tolist())


def check(inst, what):
    mine = entries(inst)
    twin = inst.copy()
    twin._set_vertex_width(inst_width[id(inst)])
    assert mine == entries(twin), what


inst_width = {}


def rig(name, anim, skin=None, width=0):
    from conftest import reference
    skel = reference("spine", "skeletons")
    inst = openbone.Instance(openbone.import_skeleton_json(skel / f"{name}.json"), skin=skin)
    inst._set_vertex_width(width)
    inst_width[id(inst)] = width
    inst.set_animation(0, anim, True, 0)
    return inst


@pytest.mark.parametrize("width", [0, 1])
@pytest.mark.parametrize("name,anim,skin,frames", [
    ("celestial-circus-pro", "swing", None, 60),   # stars: names swap every few frames, shown and hidden
    ("goblins-pro", "walk", "goblin", 40),         # eyes-closed shown and hidden
    ("tank-pro", "shoot", None, 45),               # draw-order keys
    ("spineboy-pro", "run", None, 10),
])
def test_entries_follow_the_pose(name, anim, skin, frames, width):
    inst = rig(name, anim, skin, width)
    for f in range(frames):
        inst.advance(1 / 30)
        check(inst, f"{name} frame {f}")


@pytest.mark.parametrize("width", [0, 1])
def test_skin_switches_change_kinds_and_active_bones(width):
    inst = rig("goblins-pro", "walk", "goblin", width)
    for sk in ["goblingirl", "goblin", "default", "goblingirl"]:
        inst.set_skin(sk)
        for f in range(3):
            inst.advance(1 / 30)
            check(inst, f"goblins skin {sk} frame {f}")
    hero = rig("hero-pro", "run", None, width)
    skins = [s.name for s in hero.document.skins]
    assert "weapon/morningstar" in skins and "weapon/sword" in skins
    for sk in ["weapon/morningstar", "weapon/sword", "default", "weapon/morningstar"]:
        hero.set_skin(sk)
        hero.advance(1 / 30)
        check(hero, f"hero skin {sk}")


def test_host_edits_after_advance():
    inst = rig("goblins-pro", "walk", "goblin")
    names = inst.document.slot_names
    inst.advance(1 / 30)
    inst.world_vertices()
    # hide every third slot, then show a region where a mesh was (another kind), then restore
    for j, sn in enumerate(names):
        if j % 3 == 0:
            inst.set_slot_attachment(sn, None)
    check(inst, "hidden")
    inst.set_slot_attachment("left-hand-item", "dagger")   # a region of the default skin
    inst.set_slot_attachment("right-hand-item", "dagger")  # a mesh of the default skin
    check(inst, "shown")
    inst.set_slot_attachment("left-hand-item", "spear")    # region -> mesh in the same slot
    check(inst, "kind changed")
    for f in range(3):
        inst.advance(1 / 30)
        check(inst, f"after edits, frame {f}")


def test_snapshot_restored_into_the_same_instance():
    inst = rig("celestial-circus-pro", "swing")
    for _ in range(5):
        inst.advance(1 / 30)
    snap = inst._snapshot()
    first = entries(inst)
    for f in range(17):
        inst.advance(1 / 30)
        inst.world_vertices()
    inst._restore(snap)
    assert entries(inst) == first
    check(inst, "restored")


@pytest.mark.parametrize("name,anim,skin", [("goblins-pro", "walk", "goblin"),
                                            ("celestial-circus-pro", "swing", None),
                                            ("hero-pro", "run", "weapon/sword")])
def test_random_attachment_edits(name, anim, skin):
    # shows, hides and swaps (other kinds and counts too) in several slots a step, each
    # step checked against a fresh copy: the in-place patches, insertions and removals
    import random
    rnd = random.Random(17)
    inst = rig(name, anim, skin)
    doc = inst.document
    names = doc.slot_names
    shows = {}
    for sk in doc.skins:
        for slot_name, att, _type in sk.attachments:
            shows.setdefault(slot_name, set()).add(att)
    choices = {s: sorted(v) + [None] for s, v in shows.items()}
    slots = sorted(choices)
    for f in range(40):
        inst.advance(1 / 30)
        for _ in range(rnd.randrange(0, 5)):
            s = rnd.choice(slots)
            inst.set_slot_attachment(s, rnd.choice(choices[s]))
        check(inst, f"{name} step {f}")
        if f % 7 == 3:  # twice without a pose change between
            s = rnd.choice(slots)
            inst.set_slot_attachment(s, rnd.choice(choices[s]))
            check(inst, f"{name} step {f} again")
    assert names
