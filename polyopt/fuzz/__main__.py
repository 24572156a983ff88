"""``python -m polyopt.fuzz`` runs a fuzz campaign (see ``polyopt.fuzz.campaign``)."""

import sys

from polyopt.fuzz.campaign import main

if __name__ == "__main__":
    sys.exit(main())
