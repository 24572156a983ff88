"""``python -m polyopt.bench``: the benchmark of ``polyopt.bench.suite``."""

import sys

from polyopt.bench.suite import main

sys.exit(main())
