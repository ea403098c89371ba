"""A question about a CSV table with the real default model: it writes SQL that aggregates, and answers from its rows."""

from __future__ import annotations

import pytest

from desktop_app.core.events import AnswerDone, SqlRan
from desktop_app.core.library import Library

pytestmark = pytest.mark.integration

# North has the single largest 2023 quarter (30,000) but East the largest 2023 total (39,000):
# only SQL that sums per region finds East.
SALES = """region,year,quarter,units,revenue
North,2022,Q1,120,15000.50
North,2022,Q2,130,16250.00
South,2022,Q1,200,21000.00
South,2022,Q2,180,19800.75
East,2022,Q1,90,11000.00
East,2022,Q2,95,11500.25
West,2022,Q1,150,17000.00
West,2022,Q2,160,18200.00
North,2023,Q1,240,30000.00
North,2023,Q2,40,5000.00
South,2023,Q1,170,18700.00
South,2023,Q2,160,17600.00
East,2023,Q1,160,20000.00
East,2023,Q2,150,19000.00
West,2023,Q1,155,17800.00
West,2023,Q2,165,19000.00
"""


def test_the_region_with_the_highest_2023_total_is_found_by_the_models_sql(tmp_path, real_generator, real_embedder):
    csv_file = tmp_path / "sales.csv"
    csv_file.write_text(SALES)
    lib = Library(tmp_path / "home", embedder=real_embedder, generator=real_generator)
    assert list(lib.import_paths([csv_file]))[-1].stage == "ready"
    events = list(lib.ask("Which region had the highest total revenue in 2023?"))
    result = [e for e in events if isinstance(e, AnswerDone)][0].result
    runs = [e.result for e in events if isinstance(e, SqlRan)]
    final = result.sql_runs[-1]
    print(f"\nSQL: {final.sql}\nrows: {final.rows[:5]}\nanswer: {result.answer}\n"
          f"latency: total {result.timings.total:.1f} s, SQL written in {result.timings.query_generation:.1f} s, attempts {len(runs)}")
    assert final.ok, final.error
    assert "sum(" in final.sql.lower(), final.sql
    assert final.rows and "East" in [str(v) for v in final.rows[0]], final.rows
    assert result.answer.strip(), "the rows found were not put into words"
    lib.close()
