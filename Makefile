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

.PHONY: run test install models demo clean

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

clean:
	rm -rf $(VENV) .cache build dist *.egg-info
