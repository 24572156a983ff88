"""Jinja2 templates for the file-level pieces of polyopt's output (package data of polyopt)."""
