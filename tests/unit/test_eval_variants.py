"""The research knobs live with the eval harness as named variants of the app's modes."""

from __future__ import annotations

import pytest

from desktop_app.core.errors import AppError
from desktop_app.core.modes import mode_named
from desktop_app.evaluation import harness as evaluation
from desktop_app.evaluation.variants import INTERLEAVE, NAMED_VARIANTS


def test_named_variants_are_modes_the_eval_can_run():
    assert mode_named("fusion-interleave").merge is INTERLEAVE
    assert mode_named("fusion-entity-round").entity_round == 4
    assert mode_named("fusion-names").query_styles == ("names",)
    assert mode_named("fusion-adaptive").confident_similarity > 0
    for name in NAMED_VARIANTS:
        assert evaluation.parse_mode(name).mode == name


def test_inline_knobs_make_a_variant_and_settings_fields_stay_overrides():
    spec = evaluation.parse_mode("fusion+query_style=names+extra_query_style=named-facts+question_weight=2")
    assert spec.overrides == {"question_weight": 2.0}
    assert mode_named(spec.mode).query_styles == ("names", "named-facts")
    assert mode_named(evaluation.parse_mode("naive-fusion+extra_query_style=names").mode).query_styles == ("naive",)  # the paper's prompt alone


def test_knobs_that_cannot_apply_are_clear_errors():
    with pytest.raises(ValueError, match="writes no queries"):
        evaluation.parse_mode("rag+query_style=names")
    with pytest.raises(AppError, match="no query style called 'nmaes'"):
        evaluation.parse_mode("fusion+query_style=nmaes")
    with pytest.raises(ValueError, match="fusion_method"):
        evaluation.parse_mode("fusion+fusion_method=borda")
    with pytest.raises(ValueError, match="unknown setting 'entity_rounds'"):
        evaluation.parse_mode("fusion+entity_rounds=4")
