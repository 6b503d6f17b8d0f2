"""python -m openbone: the same as the `openbone` console script."""
import sys

from .cli import main

sys.exit(main())
