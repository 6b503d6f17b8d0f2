"""The one version source: setup (pyproject.toml's dynamic version), ``openbone.__version__``
and ``openbone --version`` all read it."""
__version__ = "0.1.0"
