"""Asset pipelines: bake and render many rigs × skins × animations, locally, in a
process pool or on a Dask cluster, with a manifest of what was written.

    from openbone import pipeline
    manifest = pipeline.bake(["c1/hero.obone", "c2/hero.obone"], "out/{relpath}.npz",
                             animations="all", client=None)      # or a distributed.Client
    manifest = pipeline.render(rigs, "sheets/{rig}.png", animations="all", sheet=True)

One task per (rig, skin, animation) (per (rig, skin) for a sprite sheet); each writes its
own output atomically; a failed task is a manifest record with ``error`` set and the
others go on.  Outputs are planned and checked before anything runs
(:mod:`openbone.pipeline.tasks`): colliding or existing outputs raise
:class:`PlanError`.  With a Dask ``client`` the tasks run on its workers (the rigs and
outputs must be on a filesystem they share); ``connect("local")`` starts a
``distributed.LocalCluster`` on this machine, ``connect("tcp://host:8786")`` joins an
existing one.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Union

from .run import manifest_json, record, run_batch, run_task
from .store import read_zarr, sha256_of, write_npz, write_zarr
from .tasks import ALL, PlanError, Task, load_rig, plan

__all__ = ["bake", "render", "plan", "execute", "connect", "run_task", "load_rig", "PlanError", "Task", "ALL",
           "read_zarr", "write_npz", "write_zarr", "sha256_of", "manifest_json"]

BAKE_FORMATS = {"npz": ".npz", "zarr": ".zarr"}


def _bar(total: int, enabled: Optional[bool], desc: str):
    if enabled is None:
        enabled = total > 1 and sys.stderr.isatty()
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit="task", file=sys.stderr, leave=False, mininterval=0, miniters=1)


def connect(address: str = "local", workers: Optional[int] = None):
    """A ``distributed.Client``: ``"local"`` starts a LocalCluster of ``workers``
    processes (default: the CPU count) with one thread each; otherwise the scheduler
    address of an existing cluster (``tcp://scheduler:8786``)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise ImportError("--dask needs dask.distributed: pip install 'openbone[pipeline]'") from e
    if address in (None, "", "local"):
        n = workers or os.cpu_count() or 1
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=40)
        client = Client(cluster)
        client._openbone_cluster = cluster  # closed with the client by close()
        return client
    return Client(address)


def close(client) -> None:
    cluster = getattr(client, "_openbone_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def execute(tasks: Sequence[Task], jobs: int = 1, client=None, progress: Optional[bool] = None,
            desc: str = "tasks", batch: Optional[int] = None) -> List[Dict[str, Any]]:
    """Run tasks: on ``client`` (Dask, in batches of at most ``batch`` tasks), in ``jobs``
    processes, or one after the other.  One manifest record per task, in task order."""
    tasks = list(tasks)
    results: List[Optional[Dict[str, Any]]] = [None] * len(tasks)
    if len(tasks) == 1 and client is None:  # one task: its own bar counts frames (bakes)
        tasks[0].options["progress"] = progress
        bar = None
    else:
        bar = _bar(len(tasks), progress, desc)

    def done(i: int, rec: Dict[str, Any]) -> None:
        results[i] = rec
        if bar is not None:
            bar.update(1)

    try:
        if client is not None:
            from distributed import as_completed
            # batches of tasks (about 8 per worker in all) keep the scheduler's per-task
            # cost small next to a bake; each task still reports on its own
            n_workers = max(1, len(client.scheduler_info().get("workers", {})))
            size = max(1, min(batch or len(tasks), len(tasks) // (8 * n_workers) or 1))
            chunks = [list(range(k, min(k + size, len(tasks)))) for k in range(0, len(tasks), size)]
            futures = client.map(run_batch, [[tasks[i] for i in c] for c in chunks], pure=False)
            index = {f.key: c for f, c in zip(futures, chunks)}
            for f in as_completed(futures):
                idx = index[f.key]
                try:
                    for i, rec in zip(idx, f.result()):
                        done(i, rec)
                except Exception as e:  # the worker died or the batch could not travel
                    for i in idx:
                        done(i, record(tasks[i], error=f"task failed on the cluster: {type(e).__name__}: {e}"))
        elif jobs > 1 and len(tasks) > 1:
            from concurrent.futures import ProcessPoolExecutor, as_completed as done_futures
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futs = {pool.submit(run_task, t): i for i, t in enumerate(tasks)}
                for f in done_futures(futs):
                    try:
                        done(futs[f], f.result())
                    except Exception as e:
                        done(futs[f], record(tasks[futs[f]], error=f"task failed: {type(e).__name__}: {e}"))
        else:
            for i, t in enumerate(tasks):
                done(i, run_task(t))
    finally:
        if bar is not None:
            bar.close()
    return results  # type: ignore[return-value]


def _with_client(client, fn):
    """``client`` may be a distributed.Client, None, or an address string."""
    if isinstance(client, str):
        c = connect(client)
        try:
            return fn(c)
        finally:
            close(c)
    return fn(client)


def bake(rigs: Union[str, Sequence[str]], output: str, animations: Union[None, str, Sequence[str]] = None,
         skins: Union[None, str, Sequence[str]] = None, fps: Optional[float] = None, seconds: Optional[float] = None,
         frames: Optional[int] = None, format: str = "npz", draw: bool = True, slots: bool = True,
         overwrite: bool = False, client=None, jobs: int = 1, progress: Optional[bool] = None
         ) -> List[Dict[str, Any]]:
    """Bake every (rig, skin, animation) and return the manifest (see the module doc).

    ``animations``: None (each rig's first), ``"all"`` or names; ``skins``: None (no
    skin), ``"all"`` or names; ``format``: ``"npz"`` or ``"zarr"``."""
    if isinstance(rigs, (str, os.PathLike)):
        rigs = [os.fspath(rigs)]
    if format not in BAKE_FORMATS:
        raise PlanError(f"unknown bake format {format!r} (npz or zarr)")
    tasks = plan("bake", list(rigs), output, animations=animations, skins=skins, ext=BAKE_FORMATS[format],
                 overwrite=overwrite, options={"fps": fps, "seconds": seconds, "frames": frames, "format": format,
                                               "draw": draw, "slots": slots})
    for t in tasks:
        ext = os.path.splitext(t.output)[1].lower()
        if t.error:
            continue
        if ext not in (".npz", ".zarr"):
            raise PlanError(f"{t.output}: unknown output format {ext or '(no extension)'!r} (.npz or .zarr)")
        if ext == ".zarr":
            t.options["format"] = "zarr"
    return _with_client(client, lambda c: execute(tasks, jobs=jobs, client=c, progress=progress, desc="bake"))


def render(rigs: Union[str, Sequence[str]], output: str, animations: Union[None, str, Sequence[str]] = None,
           skins: Union[None, str, Sequence[str]] = None, frames: Optional[str] = None, fps: Optional[float] = None,
           sheet: bool = False, overwrite: bool = False, client=None, jobs: int = 1, progress: Optional[bool] = None,
           **options) -> List[Dict[str, Any]]:
    """Render every (rig, skin, animation) to ``output`` (a pattern; .png/.webp/.jpg, .gif,
    .mp4, .svg), or with ``sheet=True`` one sprite sheet per (rig, skin) holding every
    frame of the selected animations (.png/.webp, with a .json frame table beside it).
    ``frames`` is a frame spec (``"0"``, ``"0:30:5"``, ``"all"``; default frame 0, all for
    sheets).  ``options``: scale, fit, size, columns, background, bones, boxes,
    attachments, trim (sheets)."""
    from ..render.output import FORMATS, check_extension
    if isinstance(rigs, (str, os.PathLike)):
        rigs = [os.fspath(rigs)]
    kind = "sheet" if sheet else "render"
    ext = os.path.splitext(output.rstrip("/"))[1].lower() if not output.endswith(("/", os.sep)) else ""
    if not ext or os.path.isdir(output):
        ext = ".png"
    allowed = (".png", ".webp") if sheet else FORMATS
    opts = dict(options, frames_spec=frames, fps=fps)
    tasks = plan(kind, list(rigs), output, animations=animations, skins=skins, ext=ext, overwrite=overwrite,
                 options=opts)
    for t in tasks:
        if t.error:
            continue
        try:
            check_extension(t.output, allowed)
        except ValueError as e:
            raise PlanError(f"{t.output}: {e}")
        if sheet:
            table = os.path.splitext(t.output)[0] + ".json"
            if not overwrite and os.path.lexists(table):
                raise PlanError(f"{table} exists (--overwrite replaces it)")
    return _with_client(client, lambda c: execute(tasks, jobs=jobs, client=c, progress=progress, desc=kind))
