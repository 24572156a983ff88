"""Jinja2 templates for the file-level pieces of polyopt's output (installed as polyopt.templates)."""
