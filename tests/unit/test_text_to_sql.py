"""Questions about tables: the scripted "LLM" writes SQL; it runs read-only, time-limited, and is answered from its rows."""

from __future__ import annotations

import json
import sqlite3

import pytest

from desktop_app.core.codec import result_to_json
from desktop_app.core.events import AnswerDone, SourcesRanked, SqlRan, Token
from desktop_app.core.sql.catalog import catalog
from desktop_app.core.sql.text_to_sql import chart_spec, extract_sql, run_readonly
from desktop_app.core.types import SqlResult
from desktop_app.sample_datasheet import write_sample_datasheet

SALES = "region,year,revenue\nNorth,2022,100\nNorth,2023,150\nSouth,2023,300\nSouth,2022,50\nEast,2023,120\n"
TOTALS_2023 = "SELECT region, sum(revenue) AS total FROM sales WHERE year = 2023 GROUP BY region ORDER BY total DESC"


@pytest.fixture
def sales_library(empty_library, tmp_path):
    path = tmp_path / "sales.csv"
    path.write_text(SALES)
    assert list(empty_library.import_paths([path]))[-1].stage == "ready"
    return empty_library


def snapshot(library):
    conn = sqlite3.connect(library.tables.path)
    try:
        return conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall(), conn.execute("SELECT * FROM sales ORDER BY rowid").fetchall()
    finally:
        conn.close()


def run_events(events):
    events = list(events)
    [done] = [e for e in events if isinstance(e, AnswerDone)]
    return events, done.result


def test_a_question_about_a_table_is_answered_from_the_rows_of_the_sql(sales_library, generator):
    generator.enqueue(f"```sql\n{TOTALS_2023};\n```", "South sold the most in 2023, with 300.")
    events, result = run_events(sales_library.ask("Which region sold most in 2023?"))
    # Only tables in scope: routed to SQL without passages.
    assert not any(isinstance(e, SourcesRanked) for e in events)
    [ran] = [e for e in events if isinstance(e, SqlRan)]
    assert ran.result.rows == (("South", 300), ("North", 150), ("East", 120))
    assert result.mode == "sql" and result.found and result.answer == "South sold the most in 2023, with 300."
    assert "".join(e.text for e in events if isinstance(e, Token)) == result.answer
    # The LLM saw the schema with sample rows, and then the result rows.
    sql_prompt = generator.prompts[0][-1]["content"]
    assert 'CREATE TABLE "sales" ("region" TEXT, "year" INTEGER, "revenue" INTEGER)' in sql_prompt
    assert "North | 2022 | 100" in sql_prompt and "South | 2023 | 300" in sql_prompt and "South | 2022 | 50" not in sql_prompt
    assert "South | 300" in generator.prompts[1][-1]["content"]
    data = json.loads(json.dumps(result_to_json(result)))
    assert data["sql"] == TOTALS_2023 and data["columns"] == ["region", "total"] and data["rows"][0] == ["South", 300]
    assert data["chart"] is None


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO sales VALUES ('West', 2023, 999)",
        "DROP TABLE sales",
        "UPDATE sales SET revenue = 0",
        "WITH x AS (SELECT 1) DELETE FROM sales",
        "ATTACH DATABASE 'other.sqlite' AS other",
        "PRAGMA query_only = 0",
        "PRAGMA writable_schema = 1",
        "CREATE TABLE evil (x)",
        "SELECT 1; DROP TABLE sales",
        "BEGIN IMMEDIATE",
        "VACUUM",
    ],
)
def test_sql_that_writes_is_refused_and_nothing_changes(sales_library, tmp_path, monkeypatch, sql):
    monkeypatch.chdir(tmp_path)  # where a relative ATTACH would create its file
    before = snapshot(sales_library)
    result = run_readonly(sales_library.tables.path, sql, ["sales"])
    assert "only reading is allowed" in result.error or "more than one SQL statement" in result.error
    assert snapshot(sales_library) == before
    assert not (tmp_path / "other.sqlite").exists()


def test_refused_sql_is_retried_once_with_the_error_then_reported(sales_library, generator):
    generator.enqueue("DROP TABLE sales;", "DELETE FROM sales;")
    before = snapshot(sales_library)
    events, result = run_events(sales_library.ask("Remove the sales table", mode="sql"))
    runs = [e for e in events if isinstance(e, SqlRan)]
    assert [r.attempt for r in runs] == [1, 2]
    assert "only reading is allowed; the query tried to change the tables themselves" in runs[0].result.error
    assert "only reading is allowed; the query tried delete from sales" in runs[1].result.error
    # The retry prompt shows the model its own SQL and the error.
    assert "DROP TABLE sales" in generator.prompts[1][-2]["content"] and "only reading is allowed" in generator.prompts[1][-1]["content"]
    assert not result.found and "failed twice" in result.answer
    assert snapshot(sales_library) == before


def test_a_failed_query_is_corrected_by_the_retry(sales_library, generator):
    generator.enqueue("SELECT sum(amount) FROM sales", "SELECT sum(revenue) AS total FROM sales", "The total is 720.")
    events, result = run_events(sales_library.ask("What is the total revenue?"))
    assert "no such column: amount" in result.sql_runs[0].error
    assert result.sql_runs[1].rows == ((720,),) and result.answer == "The total is 720."
    data = result_to_json(result)
    assert [a["error"] != "" for a in data["sql_attempts"]] == [True, False]


def test_a_query_that_runs_forever_is_stopped_with_a_clear_message(sales_library):
    forever = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
    result = run_readonly(sales_library.tables.path, forever, ["sales"], timeout_s=0.2)
    assert not result.ok and "longer than 0.2 s and was stopped" in result.error


def test_a_huge_value_is_refused(sales_library):
    result = run_readonly(sales_library.tables.path, "SELECT length(zeroblob(500000000)) AS n", ["sales"])
    assert not result.ok and "too big" in result.error


def test_endless_rows_are_capped(sales_library):
    endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n"
    result = run_readonly(sales_library.tables.path, endless, ["sales"], row_cap=50)
    assert result.ok and len(result.rows) == 50 and result.truncated


def test_tables_outside_the_chosen_documents_cannot_be_read(sales_library, tmp_path):
    path = tmp_path / "salaries.csv"
    path.write_text("name,salary\nann,100\n")
    list(sales_library.import_paths([path]))
    assert not run_readonly(sales_library.tables.path, "SELECT * FROM salaries", ["sales"]).ok
    assert not run_readonly(sales_library.tables.path, "SELECT name FROM sqlite_master", ["sales"]).ok
    assert run_readonly(sales_library.tables.path, "SELECT * FROM salaries", ["salaries"]).rows == (("ann", 100),)


def test_only_the_chosen_tables_are_shown_to_the_model(sales_library, generator, tmp_path):
    path = tmp_path / "salaries.csv"
    path.write_text("name,salary\nann,100\n")
    list(sales_library.import_paths([path]))
    sales_id = next(d.id for d in sales_library.documents() if d.title == "sales.csv")
    generator.enqueue("SELECT count(*) AS n FROM sales", "5 rows.")
    run_events(sales_library.ask("How many sales rows?", allowed_documents=[sales_id]))
    assert "salaries" not in generator.prompts[0][-1]["content"]


def test_pdf_questions_still_go_to_passages_and_mode_sql_reaches_the_tables(sales_library, generator, tmp_path):
    list(sales_library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
    generator.enqueue("The pump runs up to 80 °C [1].")
    events, result = run_events(sales_library.ask("What is the maximum temperature of the PX-40?", mode="rag"))
    assert any(isinstance(e, SourcesRanked) for e in events) and not result.sql_runs
    assert not any("were not searched" in n for n in result.notices)  # whole library: no nagging
    # Chosen documents that mix a PDF and a table: passages answer, and the user hears how to ask the table.
    generator.enqueue("The pump runs up to 80 °C [1].")
    chosen = [d.id for d in sales_library.documents()]
    events, result = run_events(sales_library.ask("What is the maximum temperature of the PX-40?", mode="rag", allowed_documents=chosen))
    assert not result.sql_runs and any("Tables (sales.csv) were not searched" in n for n in result.notices)
    generator.enqueue(TOTALS_2023, "South.")
    events, result = run_events(sales_library.ask("Which region sold most in 2023?", mode="sql"))
    assert result.mode == "sql" and len(result.sql_runs) == 1 and result.sql_runs[0].rows[0] == ("South", 300)
    assert generator.replies == []


def test_mode_sql_without_tables_says_so(empty_library, generator):
    _, result = run_events(empty_library.ask("Which region sold most?", mode="sql"))
    assert not result.found and "no tables" in result.answer.lower() and generator.prompts == []


def test_a_chart_is_made_only_when_asked_for():
    result = SqlResult("SELECT", ("region", "total"), (("South", 300), ("North", 150)))
    assert chart_spec("Which region sold most?", result) is None
    chart = chart_spec("Show a bar chart of sales by region", result)
    assert chart.kind == "bar" and chart.labels == ("South", "North") and chart.values == (300.0, 150.0) and chart.value_column == "total"
    by_year = SqlResult("SELECT", ("year", "total"), ((2022, 150), (2023, 570)))
    line = chart_spec("plot the revenue trend per year as a line", by_year)
    assert line.kind == "line" and line.labels == ("2022", "2023") and line.label_column == "year"


def test_the_answer_prompt_shows_large_numbers_with_separators_and_years_without():
    from desktop_app.core.sql.text_to_sql import result_text

    text = result_text(SqlResult("SELECT", ("year", "total", "n"), ((2023, 40800.75, 39000.0),)))
    assert text.splitlines()[1] == "2023 | 40,800.75 | 39,000"


def test_sql_is_taken_from_the_models_reply():
    assert extract_sql("Here you go:\n```sql\nSELECT 1;\n```\nThis selects one.") == "SELECT 1;"
    assert extract_sql("The query is SELECT a FROM t") == "SELECT a FROM t"
    assert extract_sql("```\nWITH x AS (SELECT 1) SELECT * FROM x\n```") == "WITH x AS (SELECT 1) SELECT * FROM x"


def test_a_semicolon_inside_a_string_is_not_a_second_statement(sales_library):
    result = run_readonly(sales_library.tables.path, "SELECT 'a;b' AS x;", ["sales"])
    assert result.ok and result.rows == (("a;b",),)
    assert catalog(sales_library.store)[0].name == "sales"


def test_an_answer_that_changes_a_number_of_the_result_gets_a_notice(sales_library, generator):
    generator.enqueue("SELECT sum(revenue) AS total FROM sales WHERE region = 'South' AND year = 2023", "South made $300.50 in 2023.")
    _, result = run_events(sales_library.ask("What was South's revenue in 2023?"))
    assert any("300.50" in n and "does not contain" in n for n in result.notices), result.notices
    assert result.answer == "The query result: total 300."  # the rows themselves replace the wrong sentence
    generator.enqueue("SELECT sum(revenue) AS total FROM sales WHERE region = 'South' AND year = 2023", "South made 300 in 2023.")
    _, result = run_events(sales_library.ask("What was South's revenue in 2023?"))
    assert not any("does not contain" in n for n in result.notices)


def test_an_exported_chat_shows_the_sql_and_its_rows(sales_library, generator):
    generator.enqueue(TOTALS_2023, "South sold the most.")
    chat = sales_library.store.create_chat("Sales")
    run_events(sales_library.ask_in_chat(chat, "Which region sold most in 2023?"))
    markdown = sales_library.export_chat(chat)
    assert f"```sql\n{TOTALS_2023}\n```" in markdown
    assert "| region | total |" in markdown and "| South | 300 |" in markdown


def test_the_cli_prints_the_sql_the_rows_and_the_answer_and_json_has_them(sales_library, generator, capsys, monkeypatch):
    from desktop_app import cli

    monkeypatch.setitem(cli._OPEN, "library", sales_library)
    generator.enqueue(f"```sql\n{TOTALS_2023}\n```", "South sold the most in 2023, with 300.")
    assert cli.main(["ask", "Which region sold most in 2023?"]) == 0
    out = capsys.readouterr().out
    assert f"SQL:\n  {TOTALS_2023}\n" in out
    assert "  region  total\n  ------  -----\n  South     300\n  North     150\n  East      120\n(3 rows;" in out
    assert "Answer:\nSouth sold the most in 2023, with 300." in out

    generator.enqueue(TOTALS_2023, "South.")
    assert cli.main(["ask", "Which region sold most in 2023?", "--mode", "sql", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "sql" and data["sql"] == TOTALS_2023
    assert data["columns"] == ["region", "total"] and data["rows"] == [["South", 300], ["North", 150], ["East", 120]]


def test_warm_up_reads_the_sql_prompt_only_when_there_are_tables(empty_library, tmp_path):
    warmed = []
    empty_library.generator().warm_up = warmed.append  # LlamaGenerator keeps each prompt's prefix for the next call
    empty_library.pipeline().warm_up()
    assert not any("CREATE TABLE" in m[-1]["content"] for m in warmed)
    path = tmp_path / "sales.csv"
    path.write_text(SALES)
    list(empty_library.import_paths([path]))
    warmed.clear()
    empty_library.pipeline().warm_up()
    assert any('CREATE TABLE "sales"' in m[-1]["content"] for m in warmed)


def test_a_follow_up_about_a_table_is_rewritten_before_the_sql_is_written(sales_library, generator):
    chat = sales_library.store.create_chat("Sales")
    generator.enqueue(TOTALS_2023, "South sold the most in 2023.")
    run_events(sales_library.ask_in_chat(chat, "Which region sold most in 2023?"))
    generator.enqueue("Which region sold most in 2022?", "SELECT region FROM sales WHERE year = 2022 ORDER BY revenue DESC LIMIT 1", "North.")
    _, result = run_events(sales_library.ask_in_chat(chat, "and in 2022?"))
    assert result.standalone_question == "Which region sold most in 2022?"
    assert "Question: Which region sold most in 2022?" in generator.prompts[-2][-1]["content"]
    assert result.sql_runs[-1].rows == (("North",),) and result.answer == "North."


def test_the_cli_prints_the_corrected_answer_when_the_sentence_changed_a_number(sales_library, generator, capsys, monkeypatch):
    from desktop_app import cli

    monkeypatch.setitem(cli._OPEN, "library", sales_library)
    generator.enqueue("SELECT sum(revenue) AS total FROM sales", "The total is 72,000.")
    assert cli.main(["ask", "What is the total revenue?"]) == 0
    out = capsys.readouterr().out
    assert "Corrected answer: The query result: total 720." in out and "72,000" in out
