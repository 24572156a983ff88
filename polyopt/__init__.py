"""polyopt: a polyhedral source-to-source optimizer for C loop nests."""

__version__ = "0.1.0"
