"""Reading a statement file as a stream within budgets: the hostile shapes a signed-up user could
upload (a cell at column 5,000,000, a zip bomb, a DTD, bad row and cell references, endless lines)
are each refused with a message naming the line, and a workbook as spreadsheet programs write it
(shared strings, formatted empty cells far right) is still read."""

import io
import zipfile

import pytest

from statements import reading
from statements.parsing import StatementError, statement_parse
from statements.reading import COLUMNS_MAX, statement_lines

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
HEADER_CELLS = '<c r="A{r}" t="inlineStr"><is><t>Receipt No.</t></is></c><c r="B{r}" t="inlineStr"><is><t>Completion Time</t></is></c><c r="C{r}" t="inlineStr"><is><t>Paid In</t></is></c>'


def workbook(sheet_data: str, *, shared: list[str] | None = None, before_worksheet: str = "") -> bytes:
    """A workbook whose one sheet holds ``sheet_data`` (the XML inside ``<sheetData>``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="worksheet"/></Relationships>',
        )
        if shared is not None:
            items = "".join(f"<si><t>{text}</t></si>" for text in shared)
            archive.writestr("xl/sharedStrings.xml", f'<sst xmlns="{MAIN}">{items}</sst>')
        archive.writestr(
            "xl/worksheets/sheet1.xml",
            f'{before_worksheet}<worksheet xmlns="{MAIN}"><sheetData>{sheet_data}</sheetData></worksheet>',
        )
    return buffer.getvalue()


def refusal(data: bytes) -> str:
    with pytest.raises(StatementError) as refused:
        statement_parse(data)
    return str(refused.value)


def test_a_cell_at_column_five_million_is_refused_as_a_column_too_many():
    data = workbook('<row r="1"><c r="JXLKR1"><v>1</v></c></row>')  # KWQJA: column 5,000,000

    assert refusal(data) == f"Line 1: A statement may have at most {COLUMNS_MAX} columns."


def test_a_formatted_empty_cell_far_right_is_skipped_and_the_statement_read():
    data = workbook(
        f'<row r="1">{HEADER_CELLS.format(r=1)}<c r="XFD1" s="3"/></row>'
        '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2"><v>2500</v></c></row>',
        shared=["SLK4H7R2QX", "2026-11-22 10:30:00"],
    )

    [row] = statement_parse(data).rows

    assert (row.line, row.receipt, row.paid_in) == (2, "SLK4H7R2QX", 2500)


@pytest.mark.parametrize(
    ("sheet_data", "message"),
    [
        ('<row r="abc"><c r="A1"><v>1</v></c></row>', "Line 1: The row number abc is not the number of the next row."),
        (
            '<row r="2"><c r="A2"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>',
            "Line 3: The row number 2 is not the number of the next row.",
        ),
        ('<row r="1048577"><c r="A1048577"><v>1</v></c></row>', "Line 1: The row number 1048577"),
        ('<row r="1"><c r="1A1"><v>1</v></c></row>', "Line 1: The cell reference 1A1 is not one of this row's"),
        ('<row r="1"><c r="A2"><v>1</v></c></row>', "Line 1: The cell reference A2 is not one of this row's"),
        (
            '<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row>',
            "Line 1: The cell reference A1 is not one of this row's",
        ),
        ('<row r="1"><c r="A1" t="s"><v>7</v></c></row>', "Line 1: The Excel file cannot be read."),
        (f'<row r="4"><c r="A4" t="inlineStr"><is><t>{"x" * 40_000}</t></is></c></row>', "Line 4: A cell holds more"),
        ('<row r="5"><c r="A5"><v>1</v></c><unclosed></row>', "Line 5: The Excel file cannot be read."),
    ],
)
def test_a_bad_row_or_cell_is_refused_naming_its_line(sheet_data, message):
    assert refusal(workbook(sheet_data, shared=[])).startswith(message)


def test_a_dtd_is_refused_wherever_it_is():
    data = workbook(
        '<row r="1"><c r="A1"><v>1</v></c></row>',
        before_worksheet=f"<!--{' ' * 10_000}--><!DOCTYPE worksheet [<!ENTITY a 'aaaaaaaaaa'>]>",
    )

    assert refusal(data) == "The Excel file cannot be read."


def test_a_workbook_that_unpacks_past_the_budget_is_refused_before_it_is_read():
    padding = " " * (reading.XLSX_MAX_UNPACKED_BYTES + 1)

    assert refusal(workbook(f'<row r="1"><c r="A1"><v>1</v></c></row>{padding}')) == (
        "The Excel file is too large once unpacked."
    )


def test_a_zip_of_thousands_of_parts_is_refused_before_its_directory_is_read():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(3_000):
            archive.writestr(f"xl/media/{number:05}.bin", b"")

    assert refusal(buffer.getvalue()) == "The Excel file cannot be read."


def test_a_csv_line_with_more_cells_than_the_columns_allowed_is_refused():
    data = b"Receipt No.,Completion Time,Paid In\n" + b",".join([b"x"] * (COLUMNS_MAX + 1)) + b",,,\n"

    assert refusal(data) == f"Line 2: A statement may have at most {COLUMNS_MAX} columns."


def test_an_endless_csv_line_is_refused_when_read():
    data = b"Receipt No.,Completion Time,Paid In\n" + b"x" * (reading.CSV_LINE_MAX_CHARS + 1)

    assert refusal(data) == "Line 2: The line is too long to be a statement's."


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_lines_past_the_budget_are_refused_blank_ones_included(monkeypatch, kind):
    monkeypatch.setattr(reading, "LINES_MAX", 3)
    data = b"a\n\n\n\nb\n" if kind == "csv" else workbook('<row r="1"/><row r="2"/><row r="3"/><row r="4"/>')

    with pytest.raises(StatementError, match=r"^Line 4: A statement may have at most"):
        list(statement_lines(data))


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_file_read_past_its_time_budget_is_refused(monkeypatch, kind):
    monkeypatch.setattr(reading, "READ_SECONDS", -1.0)
    data = b"a,b\n" if kind == "csv" else workbook('<row r="1"><c r="A1"><v>1</v></c></row>')

    with pytest.raises(StatementError, match=r"^Line 1: The file takes too long to read"):
        list(statement_lines(data))
