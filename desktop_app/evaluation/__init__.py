"""The measuring tools, not the app: retrieval evaluation on BEIR folders through the app's own importer and
pipeline, and a cache of generated queries so re-runs with other settings generate nothing new."""
