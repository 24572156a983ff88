"""``python -m polyopt.cli --flags-markdown``: print doc/usage.md's flag table (``polyopt.cli.flags.FLAGS``)."""

from __future__ import annotations

import sys

from polyopt.cli.flags import flags_markdown

if sys.argv[1:] != ["--flags-markdown"]:
    sys.exit("usage: python -m polyopt.cli --flags-markdown  (doc/usage.md's flag table)")
print(flags_markdown(), end="")
