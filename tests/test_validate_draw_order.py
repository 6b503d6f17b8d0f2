"""Issue 21 item 11: a draw-order key naming a slot that does not exist is defined by §5 ("the
listed slots that exist fill the remaining indices"), so `openbone validate` reports it as a
warning, not as broken."""
import json
import subprocess
import sys

import openbone


def test_draw_order_key_with_a_missing_slot_is_a_warning(tmp_path):
    d = {"format": "openbone", "version": 1, "skeleton": {
        "bones": [{"id": "root", "name": "root"}],
        "slots": [{"id": "a", "name": "a", "bone": "root"}, {"id": "b", "name": "b", "bone": "root"}]},
        "animations": [{"id": "swap", "name": "swap", "duration": 1, "timelines": [
            {"target": "drawOrder", "id": "skeleton", "property": "order",
             "keys": [{"time": 0, "value": ["b", "ghost", "a"]}]}]}]}
    path = tmp_path / "rig.obone"
    path.write_text(json.dumps(d))
    doc = openbone.load(str(path))
    assert any("ghost" in w and "draw order" in w for w in doc.warnings)
    i = openbone.Instance(doc)
    i.set_animation(0, "swap", False)
    i.advance(0.1)
    assert list(i.draw_order) == [1, 0]  # the listed slots that exist, in order
    r = subprocess.run([sys.executable, "-m", "openbone", "validate", str(path), "--json"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    (report,) = json.loads(r.stdout) if r.stdout.strip().startswith("[") else [json.loads(r.stdout)]
    assert report["broken"] == [] and any("ghost" in w for w in report["warnings"])
    r = subprocess.run([sys.executable, "-m", "openbone", "validate", str(path), "--strict"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1
