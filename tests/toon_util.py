"""Helpers of the Jabbertoon tests: build programs, run them, read poses."""
import math
import struct

from openbone import toon


def prog(*bodies, params=None, vars=None, hats=None, kind="behaviour"):
    """A behaviour whose scripts have these bodies (hats[i] for script i, default start)."""
    scripts = []
    for i, body in enumerate(bodies):
        s = {"body": body}
        if hats and hats[i] is not None:
            s["hat"] = hats[i]
        scripts.append(s)
    p = {"v": 1, "kind": kind, "scripts": scripts}
    if params is not None:
        p["params"] = params
    if vars is not None:
        p["vars"] = vars
    return p


def runtime(legs=2, seed=0, chars=("c",)):
    rt = toon.create_runtime(seed=seed)
    for c in chars:
        rt.add_character(c, legs=legs)
    return rt


def pose_at(body, T, legs=2, dur=None, params=None, **kw):
    """The pose of character c at T, one behaviour with one start script, one jump."""
    rt = runtime(legs=legs)
    rt.start_behaviour("c", prog(body, **kw), dur=dur, params=params)
    rt.step_to(T)
    return rt.pose("c")


def bits(x):
    """A float's bits (NaN compares equal to NaN)."""
    return struct.pack("<d", x)


def pose_bits(p):
    """A pose as nested tuples of bits, for bit-for-bit comparisons."""
    out = []
    for k, v in p.items():
        if isinstance(v, float):
            out.append((k, bits(v)))
        elif isinstance(v, dict):
            out.append((k, tuple(sorted((kk, pose_bits(vv) if isinstance(vv, dict) else
                                         (bits(vv) if isinstance(vv, float) else vv)) for kk, vv in v.items()))))
        else:
            out.append((k, v))
    return tuple(out)


def smooth(u):
    return u * u * (3 - 2 * u)


TAU = 2 * math.pi
