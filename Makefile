# The two set-up commands are `make run` and `make test`; everything else is reached from them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# Models come from local files only; nothing is fetched from a model hub.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# Tests share one assembled copy of the default model instead of 1 GB per test data folder.
TEST_MODELS_DIR := $(CURDIR)/.cache/models

.PHONY: run test install models demo clean eval

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[models,dev]'
	touch $@

install: $(STAMP)

models: install
	$(BIN)/desktop-app-cli models prepare

run: models
	$(BIN)/desktop-app-cli demo

demo: models
	$(BIN)/desktop-app-cli demo

test: install
	DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) $(BIN)/desktop-app-cli models prepare
	QT_QPA_PLATFORM=offscreen DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) $(BIN)/python -m pytest

# Retrieval quality (issue 4). The benchmark data is built from public packages into .cache (never committed);
# the eval libraries and the generated-query cache live there too, so a re-run embeds and generates nothing new.
BENCH := ../shared/bench
EVAL_DIR := .cache/eval
EVAL_MODES ?= rag,naive-fusion,fusion
EVAL_SAMPLE ?=
EVAL_ARGS = --modes $(EVAL_MODES) $(if $(EVAL_SAMPLE),--sample $(EVAL_SAMPLE)) --query-cache $(EVAL_DIR)/query-cache.sqlite

.cache/devset/qrels.tsv:
	$(BIN)/python $(BENCH)/build_devset.py .cache/devset

.cache/faqset/qrels.tsv:
	$(BIN)/python $(BENCH)/build_faqset.py .cache/faqset

eval: models .cache/devset/qrels.tsv .cache/faqset/qrels.tsv
	$(BIN)/python -m desktop_app.cli eval .cache/devset --home $(EVAL_DIR)/devset-home $(EVAL_ARGS) --json $(EVAL_DIR)/devset.json
	$(BIN)/python -m desktop_app.cli eval .cache/faqset --home $(EVAL_DIR)/faqset-home $(EVAL_ARGS) --json $(EVAL_DIR)/faqset.json

clean:
	rm -rf $(VENV) .cache build dist *.egg-info
