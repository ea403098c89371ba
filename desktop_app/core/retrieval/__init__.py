"""Stage 2, search: the LLM writes queries from the question, each is searched (vector and keyword lists),
and the ranked lists are fused (reciprocal rank fusion) into one list of passages."""
