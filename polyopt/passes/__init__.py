"""One pass per capability, each the entry point of its analysis (``polyopt.analysis``) and its
transform (``polyopt.transform``): it plans on a ``RegionContext``, applies its plan and reports it
(``polyopt.passes.base``).  ``polyopt.pipeline`` runs them in order."""
