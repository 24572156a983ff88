"""``python -m polyopt.calibrate``: the target file of ``polyopt.calibrate.thresholds``."""

import sys

from polyopt.calibrate.thresholds import main

sys.exit(main())
