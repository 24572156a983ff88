"""Frontend: C text to the plain-data region model (no islpy here).

Public: ``find_regions`` (regions.py), ``parse_region`` (cparse.py),
``extract_scop`` (extract.py), ``parameter_values`` (params.py), ``named_constants``
(constants.py), ``declared_types`` (declarations.py), the declarations and structure members
inside regions (locals.py), GNU C spellings read as standard C or named (gnu.py) and the IR in scop.py.
"""
