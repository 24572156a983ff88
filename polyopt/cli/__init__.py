"""The flags of polyopt's commands: ``flags`` (``FLAGS``, one table of the options of ``polyopt FILE``, and the
flag table of doc/usage.md), ``flags_context`` (the flags of the target machine and of the input's context),
``flag_spec`` (what one flag is, and its click settings) and ``pluto_flags`` (Pluto's flags, read or ignored).
``polyopt.command`` and ``polyopt.program`` read their command lines through them; ``polyopt.__main__`` (the
console script) chooses the command.  ``python -m polyopt.cli --flags-markdown`` prints doc/usage.md's flag table."""
