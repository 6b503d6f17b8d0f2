"""`openbone toon validate|run|plot`, openbone.plot.plot_channels, and the Jabbertoon fuzzers'
short reproducible run (tests/fuzz, libFuzzer)."""
import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from openbone import toon
from openbone.cli import main
from toon_util import prog

ROOT = Path(__file__).resolve().parents[1]
HOP = prog([{"op": "hop"}, {"op": "letFollow", "part": "ears"}, {"op": "reach", "part": "hands", "at": "hip"},
            {"op": "set", "ch": "mood", "to": "=happy"}])


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "hop.json"
    good.write_text(json.dumps(HOP))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(prog([{"op": "wave", "ch": "part:Arm", "amp": "=nobody"}])))
    return good, bad, tmp_path


def test_validate(files, capsys):
    good, bad, _ = files
    assert main(["toon", "validate", str(good)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["toon", "validate", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "scripts.0.body.0.ch" in out and "invalid (1 error)" in out
    assert main(["toon", "validate", str(bad), "--json"]) == 1
    r = json.loads(capsys.readouterr().out)
    assert r["ok"] is False and r["errors"][0].startswith("scripts.0.body.0.ch: ")
    assert [w.split(": ")[0] for w in r["warnings"]] == ["scripts.0.body.0.amp"]
    notjson = files[2] / "x.json"
    notjson.write_text("{oops")
    assert main(["toon", "validate", str(notjson)]) == 1


def test_run_json_and_npz(files, capsys):
    good, bad, tmp = files
    out = tmp / "poses.json"
    assert main(["toon", "run", str(good), "--legs", "4", "--dur", "2", "--fps", "10", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert len(doc["frames"]) == 20 and doc["fps"] == 10
    for k in (0, 3, 19):
        f = doc["frames"][k]
        assert f["t"] == k / 10
        assert f["pose"] == toon.pose_at(HOP, k / 10, dur=2, legs=4)
    npz = tmp / "poses.npz"
    assert main(["toon", "run", str(good), "--seconds", "1.05", "-o", str(npz), "-q"]) == 0
    a = np.load(npz)
    assert a["t"].shape == (26,) and a["base"].shape == (7, 26)  # ceil(1.05 * 24) frames
    assert list(a["base_names"]) == ["dx", "dy", "sx", "sy", "rot", "mouth", "blink"]
    ears = list(a["parts_names"]).index("ear:1")
    p = toon.pose_at(HOP, 10 / 24)
    assert a["parts"][ears, 10] == p["parts"]["ear:1"] and a["base"][1, 10] == p["dy"]
    assert list(a["reach_names"]) == ["hand:-1", "hand:1"] and a["reach_w"][1, 10] == p["reach"]["hand:1"]["w"]
    assert a["mood"][0] == "" and a["mood"][-1] == "=happy"  # after the reach's 0.4 s
    assert main(["toon", "run", str(bad), "--dur", "1", "-o", str(tmp / "x.json")]) == 2
    assert "invalid program" in capsys.readouterr().err
    assert main(["toon", "run", str(tmp / "missing.json"), "--dur", "1", "-o", str(tmp / "x.json")]) == 2
    assert main(["toon", "run", str(good), "-o", str(tmp / "x.json")]) == 2  # no length: give seconds
    assert not (tmp / "x.json").exists()


def test_plot(files):
    pytest.importorskip("matplotlib")
    good, _, tmp = files
    png = tmp / "hop.png"
    assert main(["toon", "plot", str(good), "--dur", "1", "--channels", "dy,sy,part:ear:1,reach:hand:1", "-o",
                 str(png), "-q"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_plot_channels_helper():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    from openbone.plot import plot_channels
    from openbone.toon.record import record
    rec = record(HOP, seconds=1, fps=30)
    ax = plot_channels(rec)
    labels = [line.get_label() for line in ax.get_lines()]
    assert "dy" in labels and "part:ear:1" in labels and "dx" not in labels  # only what moves
    line = ax.get_lines()[labels.index("dy")]
    assert np.array_equal(line.get_ydata(), rec.channel("dy"))
    poses = [toon.pose_at(HOP, k / 10) for k in range(10)]
    ax = plot_channels(poses, ["dy"], times=[k / 10 for k in range(10)])
    assert list(ax.get_lines()[0].get_xdata()) == [k / 10 for k in range(10)]
    with pytest.raises(toon.ToonError):
        rec.channel("wobble")
    assert math.isnan(rec.channel("part:nothing")[0])


@pytest.mark.skipif(shutil.which("clang") is None or os.environ.get("OPENBONE_SANITIZED") == "1",
                    reason="needs clang with libFuzzer")
def test_fuzz_toon_smoke():
    """The program loader + runtime and the expression parser under libFuzzer + ASan/UBSan, a
    fixed seed and number of runs (the long runs: make -C tests/fuzz long_toon)."""
    fz = ROOT / "tests" / "fuzz"
    r = subprocess.run(["make", "-s", "-C", str(fz), "smoke_toon", "SMOKE_RUNS=1500"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
