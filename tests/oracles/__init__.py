"""The project's independent reference implementations of the specs, in pure Python.

Written from the specification text (shared/spec/, shared/conformance/FORMAT.md), never
from csrc/; they write the conformance expected files and back the differential test.

* ``common``     shared helpers: JS numbers and rounding, §4 maths, §4.3 curves, §5
                 sampling, §5.1 localTime, §8.1 attachment lookup, §8.7 atlasUvMap,
                 the expected-file command line;
* ``base``       §2 / §3 setup poses (bones, slots, skins, every inherit mode);
* ``constraint`` §7 IK / transform / path / physics on top of ``base``;
* ``anim``       §5 timelines, §6 AnimationState, §10 AudioDirector;
* ``draw``       §8 draw list and §8.10 bounds on a posed ``base`` instance;
* ``particle``   §8.8 particles;
* ``sm``         §9 state machines (on ``anim``);
* ``sm_helpers`` small document builders for the §9 tests (they load through openbone).

Generators (write conformance/expected/<name>, ``--check`` to verify)::

    python tests/oracles constraint conformance/cases/ik.json ...
    python tests/oracles anim | draw FILES | particle | sm
    python conformance/tools/make_expected.py      (the base oracle: setup-pose case files)
"""
