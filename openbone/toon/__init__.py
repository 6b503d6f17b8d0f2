# PLACEHOLDER (branch rigs): engineer "toon" owns openbone/toon/__init__.py; the coordinator replaces this file at merge.
"""openbone.toon: Jabbertoon (placeholder package marker for the rigs branch; see roles.py, rig.py)."""
