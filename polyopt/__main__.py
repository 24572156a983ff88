"""``python -m polyopt`` runs the command line."""

from polyopt.cli import main

main()
