"""Issue 21 item 10: resource requests and out-of-range numbers in the bindings are
OpenBoneError; a wrong Python type is TypeError (README "Limits")."""
import math
import os

import pytest

import openbone
from oracles.sm_helpers import doc, inst, layer, state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUGE = 10 ** 400


@pytest.fixture
def hero():
    i = openbone.Instance(openbone.load(os.path.join(ROOT, "examples", "hero.obone")))
    i.set_animation(0, "walk", True)
    return i


def test_tracks_and_animations(hero):
    for call in (lambda: hero.set_animation(2 ** 40, "walk"), lambda: hero.set_animation(-1, "walk"),
                 lambda: hero.add_animation(2 ** 40, "walk"), lambda: hero.track(2 ** 33),
                 lambda: hero.clear_track(2 ** 32), lambda: hero.clear_track(16),
                 lambda: hero.set_animation(0, "walk", True, math.nan), lambda: hero.set_animation(0, "walk", True, HUGE),
                 lambda: hero.add_animation(0, "walk", False, math.inf), lambda: hero.set_track_speed(0, math.inf),
                 lambda: hero.set_track_alpha(0, math.nan), lambda: hero.set_track_speed(0, HUGE),
                 lambda: hero.apply_animation("walk", HUGE)):
        with pytest.raises(openbone.OpenBoneError):
            call()
    for call in (lambda: hero.set_animation(0, "walk", True, [1]), lambda: hero.set_track_speed(0, "fast")):
        with pytest.raises(TypeError):
            call()
    assert hero.track(0)["animation"] == "walk"  # nothing was changed by the refused calls
    assert hero.track(0)["speed"] == 1


def test_inputs_and_pointers():
    d = doc(inputs=[("n", "number", 0), ("s", "string", ""), ("b", "bool", False)], layers=[layer([state("A")])])
    i = inst(d)
    with pytest.raises(openbone.OpenBoneError, match="out of range"):
        i.set_input("n", HUGE)
    with pytest.raises(openbone.OpenBoneError, match="surrogate"):
        i.set_input("s", "\ud800")
    for bad in ([1], {"a": 1}, object()):
        with pytest.raises(TypeError):
            i.set_input("s", bad)
    assert i.set_input("n", 2 ** 60) is True and i.inputs["n"] == 2.0 ** 60  # in range: the nearest double
    assert i.set_input("n", math.inf) is False  # §9.5: a non-finite number is ignored
    for bad in ((HUGE, 0), (0, math.nan), (math.inf, 1)):
        with pytest.raises(openbone.OpenBoneError):
            i.pointer("move", *bad)
    with pytest.raises(TypeError):
        i.pointer("move", "1", 2)


def test_particles_and_skins(hero):
    with pytest.raises(openbone.OpenBoneError):
        hero._emit_particles(0, HUGE)
    with pytest.raises(openbone.OpenBoneError):
        hero._core_set_skin(2 ** 40) if hasattr(hero, "_core_set_skin") else openbone._core.Instance.set_skin(hero, 2 ** 40)
    with pytest.raises(openbone.OpenBoneError):
        openbone._core.Instance.set_skin(hero, 99)
