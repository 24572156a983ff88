"""Analysis: facts about a modelled region (dependences, reuse, footprints; BLAS idioms: ``polyopt.library``)."""
