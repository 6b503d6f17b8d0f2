"""Differential testing: seeded random documents through the C core and through the oracles.

``generate`` writes valid random documents and case files, ``check`` runs both sides,
compares at the §1 tolerances and reduces disagreements; ``python tests/differential``
is the command line (``make differential N=5000``).  tests/test_differential.py runs a
fixed seed set and every kept regression case (tests/data/differential/*.json).
"""
