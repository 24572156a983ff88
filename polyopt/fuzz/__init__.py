"""Differential fuzzing of polyopt: random affine programs, the original against polyopt's output.

Modules: ``generator`` (seeded random programs and their smaller variants),
``differential`` (the check of one program under option sets), ``campaign``
(``python -m polyopt.fuzz``: many seeds on worker processes, failures shrunk).
"""
