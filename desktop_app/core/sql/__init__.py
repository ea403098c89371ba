"""Questions about CSV/Excel tables: the LLM writes one read-only SELECT, it runs under an authorizer,
and the LLM answers from the rows."""
