"""CSV and Excel files become SQLite tables: types, names, bad files, re-import and removal."""

from __future__ import annotations

import sqlite3

import openpyxl
import pytest

from desktop_app.core.ingest.table_files import TableFileError, read_csv
from desktop_app.core.sql.catalog import catalog
from desktop_app.core.storage.table_store import sanitize
from desktop_app.sample_datasheet import write_sample_datasheet

SALES = "Region;Year;Total Sales ($);Date;Zip\nNorth;2023;120.5;2023-01-05;01234\nSouth;2023;300;2023-02-01;99999\nNorth;2022;90;2022-03-01;\n"


def table_rows(library, name):
    conn = sqlite3.connect(library.tables.path)
    try:
        return conn.execute(f'SELECT * FROM "{name}"').fetchall()
    finally:
        conn.close()


def column_types(library, name):
    conn = sqlite3.connect(library.tables.path)
    try:
        return {r[1]: r[2] for r in conn.execute(f'PRAGMA table_info("{name}")')}
    finally:
        conn.close()


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_csv_becomes_a_typed_table_with_safe_names(empty_library, tmp_path):
    csv_file = write(tmp_path / "2023 Sales-Report.csv", SALES)
    events = list(empty_library.import_paths([csv_file]))
    assert events[-1].stage == "ready" and events[-1].unit == "rows" and events[-1].total == 3
    [doc] = empty_library.documents()
    assert doc.kind == "table" and doc.rows == 3 and doc.chunks == 0
    [info] = catalog(empty_library.store)
    # Sanitized: lower case, no spaces or symbols, never starting with a digit.
    assert info.name == "t_2023_sales_report"
    assert info.columns == ("region", "year", "total_sales", "date", "zip")
    # Integers and floats typed; dates stay text (ISO sorts right); a zip code keeps its leading zero.
    assert column_types(empty_library, info.name) == {"region": "TEXT", "year": "INTEGER", "total_sales": "REAL", "date": "TEXT", "zip": "TEXT"}
    assert table_rows(empty_library, info.name) == [
        ("North", 2023, 120.5, "2023-01-05", "01234"),
        ("South", 2023, 300.0, "2023-02-01", "99999"),
        ("North", 2022, 90.0, "2022-03-01", None),
    ]
    # The app's own database holds only the catalog, never the user's rows.
    app_tables = {r[0] for r in empty_library.store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert info.name not in app_tables


def test_delimiters_are_sniffed_and_a_headerless_file_gets_numbered_columns(tmp_path):
    tabbed = read_csv(write(tmp_path / "a.csv", "name\tscore\nann\t3\nbob\t4\n"))
    assert tabbed.columns == ("name", "score") and tabbed.rows == (("ann", 3), ("bob", 4))
    headerless = read_csv(write(tmp_path / "b.csv", "1,2.5,x\n2,3.5,y\n"))
    assert headerless.columns == ("col_1", "col_2", "col_3") and headerless.types == ("INTEGER", "REAL", "TEXT")


def test_duplicate_and_odd_column_names_are_made_unique_and_quotable(tmp_path):
    table = read_csv(write(tmp_path / "c.csv", 'Amount,amount,"select",,"a""b"\n1,2,3,4,5\n'))
    assert table.columns == ("amount", "amount_2", "select", "col_4", "a_b")
    assert sanitize("sqlite_master", "table") == "t_sqlite_master"


def test_each_sheet_of_a_workbook_becomes_a_table(empty_library, tmp_path):
    import datetime

    book = openpyxl.Workbook()
    first = book.active
    first.title = "Q1"
    first.append(["Product", "Units", "Shipped"])
    first.append(["Pump", 4, datetime.datetime(2023, 3, 1)])
    first.append(["Valve", 10, datetime.datetime(2023, 3, 2)])
    second = book.create_sheet("Q2 Totals")
    second.append(["Product", "Units"])
    second.append(["Pump", 7])
    book.create_sheet("Empty")
    book.save(tmp_path / "stock.xlsx")
    events = list(empty_library.import_paths([tmp_path / "stock.xlsx"]))
    assert events[-1].stage == "ready", events[-1].message
    names = [t.name for t in catalog(empty_library.store)]
    assert names == ["stock_q1", "stock_q2_totals"]
    assert table_rows(empty_library, "stock_q1") == [("Pump", 4, "2023-03-01"), ("Valve", 10, "2023-03-02")]
    [doc] = empty_library.documents()
    assert doc.rows == 3 and doc.pages == 2


def test_bad_files_fail_alone_with_a_clear_message(empty_library, tmp_path):
    good = write(tmp_path / "docs" / "good.csv", "a,b\n1,2\n")
    empty = write(tmp_path / "docs" / "empty.csv", "")
    ragged = write(tmp_path / "docs" / "ragged.csv", "a,b,c\n1,2,3\n4,5\n")
    header_only = write(tmp_path / "docs" / "header.csv", "a,b,c\n")
    broken = tmp_path / "docs" / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 this is not really a workbook")
    pdf = write_sample_datasheet(tmp_path / "docs" / "px40.pdf")
    events = list(empty_library.import_paths([tmp_path / "docs"]))
    final = {e.file.rsplit("/", 1)[-1]: e for e in events if e.stage in ("ready", "failed")}
    assert final["good.csv"].stage == "ready" and final["px40.pdf"].stage == "ready"
    assert final["empty.csv"].stage == "failed" and "empty.csv is empty" in final["empty.csv"].message
    assert final["ragged.csv"].stage == "failed" and "row 3 has 2 fields but the header has 3" in final["ragged.csv"].message
    assert final["header.csv"].stage == "failed" and "no rows of data" in final["header.csv"].message
    assert final["broken.xlsx"].stage == "failed" and "could not be read as an Excel workbook" in final["broken.xlsx"].message
    assert sorted(d.title for d in empty_library.documents()) == ["PX-40 Industrial Pump Datasheet", "good.csv"]
    assert [t.name for t in catalog(empty_library.store)] == ["good"]
    assert pdf.exists()


def test_reimporting_does_nothing_and_a_changed_file_replaces_its_table(empty_library, tmp_path):
    csv_file = write(tmp_path / "sales.csv", SALES)
    list(empty_library.import_paths([csv_file]))
    assert list(empty_library.import_paths([csv_file]))[-1].stage == "skipped"
    assert empty_library.tables.names() == {"sales"}
    write(tmp_path / "sales.csv", "region,amount\nWest,5\n")
    assert list(empty_library.import_paths([csv_file]))[-1].stage == "ready"
    [doc] = empty_library.documents()
    assert doc.rows == 1
    [info] = catalog(empty_library.store)
    assert empty_library.tables.names() == {info.name}  # the old version's table is gone
    assert table_rows(empty_library, info.name) == [("West", 5)]


def test_removing_the_document_drops_its_table(empty_library, tmp_path):
    list(empty_library.import_paths([write(tmp_path / "sales.csv", SALES), write(tmp_path / "costs.csv", "item,cost\nrent,10\n")]))
    sales = next(d for d in empty_library.documents() if d.title == "sales.csv")
    empty_library.remove_document(sales.id)
    assert empty_library.tables.names() == {"costs"}
    assert [t.name for t in catalog(empty_library.store)] == ["costs"]


def test_a_table_file_without_a_table_store_is_refused_like_any_unsupported_file(empty_library, tmp_path):
    from desktop_app.core.ingest.importer import Importer

    importer = Importer(empty_library.store, empty_library.index, empty_library.embedder)
    events = list(importer.import_paths([write(tmp_path / "sales.csv", SALES)]))
    assert events[-1].stage == "failed"


def test_build_table_rejects_an_all_empty_grid():
    from desktop_app.core.ingest.table_files import build_table

    with pytest.raises(TableFileError, match="is empty"):
        build_table("x.csv", "x", [["", None], [None]])
