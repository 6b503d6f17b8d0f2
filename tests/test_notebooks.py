"""The notebooks in notebooks/ run from top to bottom without errors (issue 8)."""
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebook tests need nbformat (test extra)")
nbclient = pytest.importorskip("nbclient", reason="the notebook tests need nbclient (test extra)")
pytest.importorskip("ipykernel", reason="the notebook tests need ipykernel (test extra)")
pytest.importorskip("matplotlib", reason="the notebooks plot with matplotlib")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
ALL = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))  # every notebook, as it lands
ELSEWHERE = {"rig-viewer.ipynb": "tests/test_widgets.py"}  # executed (and checked) by their own tests
NAMES = [n for n in ALL if n not in ELSEWHERE]
FIRST = ["curves.ipynb", "physics.ipynb", "rig-debugging.ipynb"]  # the ones with three plots at least


def _texts(nb):
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                out.append(o.get("text", ""))
            elif "data" in o and "text/plain" in o["data"]:
                out.append(o["data"]["text/plain"])
    return "\n".join(out)


def _images(nb):
    return sum(1 for cell in nb.cells for o in cell.get("outputs", []) if "image/png" in o.get("data", {}))


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name, tmp_path, monkeypatch):
    """Run in an empty folder: a notebook finds its rigs through openbone.examples, not the checkout.
    The kernel is told where the reference rigs are (OPENBONE_REFERENCE, when they are there): a
    notebook may perform on them then (toon-on-rigs.ipynb), falling back to the project's own."""
    from conftest import REFERENCE
    if REFERENCE.is_dir():
        monkeypatch.setenv("OPENBONE_REFERENCE", str(REFERENCE))
    _run(name, tmp_path)


def test_toon_on_rigs_runs_on_the_projects_own_rigs(tmp_path, monkeypatch):
    """Without the reference (a bare clone), toon-on-rigs.ipynb performs on hero and the sprout."""
    monkeypatch.delenv("OPENBONE_REFERENCE", raising=False)
    text = _run("toon-on-rigs.ipynb", tmp_path)
    assert "performing on: hero, sprout" in text and "bit-identical to the bake: True" in text


def _run(name, tmp_path):
    nb = nbformat.read(str(NOTEBOOKS / name), as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    elapsed = time.perf_counter() - t0
    assert elapsed < 120, f"{name} took {elapsed:.0f} s (keep notebooks under ~20 s)"
    assert _images(nb) >= (3 if name in FIRST else 1)  # the plots were drawn
    text = _texts(nb)
    assert "Traceback" not in text
    if name == "physics.ipynb":
        # a single pendulum is independent of the host's step size (to rounding)
        for line in text.splitlines():
            if line.startswith("dt = 1/"):
                assert float(line.rsplit("=", 1)[1]) < 1e-12, line
    if name == "rig-debugging.ipynb":
        assert "broken (2 problems)" in text and "exit code 1" in text
    if name == "toon-on-rigs.ipynb":
        assert "bit-identical to the bake: True" in text
    return text


def test_notebooks_use_only_the_projects_own_files():
    """Issue 23: no notebook reads ../shared or looks for the checkout; rigs come from openbone.examples."""
    for name in ALL:
        nb = nbformat.read(str(NOTEBOOKS / name), as_version=4)
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        for bad in ("shared/", "Path.cwd().parents", "examples/hero.obone", '"examples"'):
            assert bad not in code, (name, bad)


def test_notebooks_are_stored_executed():
    """The committed notebooks carry their outputs (readable without running them)."""
    for name in FIRST:
        nb = nbformat.read(str(NOTEBOOKS / name), as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code and all(c.get("execution_count") for c in code), name
        assert _images(nb) >= (3 if name in FIRST else 1), name
