"""Emit: isl AST to our small C AST (isl_ast.py), C AST to text (cprint.py),
statement bodies (body.py) and the spliced file (splice.py)."""
