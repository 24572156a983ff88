"""The commands that build and run the user's own program: ``polyopt check`` (``check``: the program original and
optimized, outputs compared) and ``polyopt tune`` (``tune``, with the variants, timers and choices of
``tune_plan``: each region's fastest correct code, timed in the program)."""
