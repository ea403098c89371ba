"""Stage 2, search: the LLM writes queries from the question (query_styles.py: the prompts, as a table;
query_writing.py: asking and reading), each is searched (search.py: vector and keyword lists, limited to
chosen documents), and the ranked lists are merged (fusion.py: reciprocal rank fusion, or union) into one
list of passages. strategies.py: a text the LLM writes to be searched instead of the question (rewrite, HyDE); followup.py: a
follow-up ("and its IP rating?") rewritten from the chat into the question searched."""
