"""Analysis: facts about a modelled region (dependences, and later reuse and idioms)."""
