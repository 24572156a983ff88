"""The idiom kinds, one module per family: each kind implements ``polyopt.library.protocol.Idiom``."""
