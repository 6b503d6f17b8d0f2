"""openbone.earcut against earcut 3.2.4's own output (runtime spec §8.5, §12).

Every case of tests/data/earcut/{fixtures,generated}.json (earcut's own output, with its
provenance in tests/data/earcut/README.md) must give the
same triangle indices in the same order.  Plus the input forms ((n, 2) or flat)
and the input errors of the binding.
"""
import json
from pathlib import Path

import numpy as np
import pytest

import openbone

REF_DIR = Path(__file__).resolve().parent / "data" / "earcut"


def load_cases():
    cases = []
    for name in ("fixtures.json", "generated.json"):
        cases += json.loads((REF_DIR / name).read_text())
    return cases


CASES = load_cases()


def test_reference_data_present():
    assert len(CASES) == 179, f"expected 179 reference cases in {REF_DIR}"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_reference_case(case):
    got = openbone.earcut(case["vertices"], case["holes"])
    assert isinstance(got, np.ndarray)
    assert got.dtype == np.uint32 and got.ndim == 1
    assert got.tolist() == case["triangles"]


def by_name(name):
    return next(c for c in CASES if c["name"] == name)


SQUARE = [0, 0, 10, 0, 10, 10, 0, 10]


def test_flat_and_pairs_agree():
    case = by_name("water")
    flat = np.asarray(case["vertices"], dtype=np.float64)
    pairs = flat.reshape(-1, 2)
    expected = case["triangles"]
    assert openbone.earcut(flat, case["holes"]).tolist() == expected
    assert openbone.earcut(pairs, case["holes"]).tolist() == expected
    assert openbone.earcut(pairs.tolist(), case["holes"]).tolist() == expected
    # non-contiguous and non-float64 inputs are converted
    assert openbone.earcut(np.asfortranarray(pairs), case["holes"]).tolist() == expected
    assert openbone.earcut(pairs[::1, :], tuple(case["holes"])).tolist() == expected


def test_integer_and_float32_input():
    expected = [2, 3, 0, 2, 0, 1]
    assert openbone.earcut(np.array(SQUARE, dtype=np.int32)).tolist() == expected
    assert openbone.earcut(np.array(SQUARE, dtype=np.float32).reshape(4, 2)).tolist() == expected
    assert openbone.earcut(tuple(SQUARE)).tolist() == expected


def test_holes_none_empty_and_keyword():
    a = openbone.earcut(SQUARE)
    assert openbone.earcut(SQUARE, None).tolist() == a.tolist()
    assert openbone.earcut(SQUARE, []).tolist() == a.tolist()
    assert openbone.earcut(vertices=SQUARE, holes=np.array([], dtype=np.int64)).tolist() == a.tolist()


def test_holes_as_numpy_ints():
    case = by_name("building")
    holes = case["holes"]
    if not holes:
        case = next(c for c in CASES if c["holes"])
        holes = case["holes"]
    got = openbone.earcut(case["vertices"], np.asarray(holes, dtype=np.int64))
    assert got.tolist() == case["triangles"]


def test_empty_and_degenerate():
    for verts in ([], np.zeros((0, 2)), [1, 2], [0, 0, 1, 1]):
        got = openbone.earcut(verts)
        assert got.dtype == np.uint32 and got.shape == (0,)


def test_result_is_a_fresh_array():
    a = openbone.earcut(SQUARE)
    b = openbone.earcut(SQUARE)
    a[0] = 99
    assert b[0] != 99


@pytest.mark.parametrize(
    "verts",
    [
        [0, 0, 10, 0, 10],                    # odd flat length
        np.zeros((4, 3)),                     # wrong second dimension
        np.zeros((2, 2, 2)),                  # too many dimensions
        5.0,                                  # scalar
        [[0, 0], [1, 1, 1]],                  # ragged
    ],
)
def test_bad_shape(verts):
    with pytest.raises(openbone.OpenBoneError, match="shape"):
        openbone.earcut(verts)


@pytest.mark.parametrize(
    "verts",
    [
        ["a", "b", "c", "d", "e", "f"],
        [[0, 0], [1, 0], [None, 1]],
        np.array([1 + 2j, 0, 1, 1, 0, 1]),
        np.array([True, False, True, True, False, True]),
        {"x": 1},
    ],
)
def test_non_numeric_vertices(verts):
    with pytest.raises(openbone.OpenBoneError):
        openbone.earcut(verts)


@pytest.mark.parametrize(
    "holes, match",
    [
        ([4], "out of range"),
        ([-1], "out of range"),
        ([2, 2], "increasing"),
        ([3, 2], "increasing"),
        ([1.5], "integer"),
        (["2"], "integer"),
        ([True], "integer"),
        (2, "sequence"),
        ("2", "sequence"),
        ([2**70], "out of range"),
    ],
)
def test_bad_holes(holes, match):
    with pytest.raises(openbone.OpenBoneError, match=match):
        openbone.earcut(SQUARE, holes)


def test_error_is_a_value_error():
    assert issubclass(openbone.OpenBoneError, ValueError)
    with pytest.raises(ValueError):
        openbone.earcut([0, 0, 1])
