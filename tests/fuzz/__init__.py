"""Differential fuzzing: random affine programs, original against polyopt's output."""
