"""The statement parser: the Org Portal's exports (column names vary, CSV or Excel) and every kind of
file it must refuse, each with a message naming the line."""

import io
import zipfile
from datetime import date, datetime

import pytest

from simulators.statements import BankLine, Line, bank_statement_csv, statement_csv
from statements.parsing import (
    NAIROBI,
    NOT_WHOLE_SHILLINGS,
    STATEMENT_MAX_BYTES,
    BankColumns,
    StatementError,
    bank_columns_suggest,
    bank_statement_header,
    bank_statement_parse,
    statement_parse,
)

HEADER = "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No."
ROW = 'SLK4H7R2QX,2026-11-22 10:30:00,2026-11-22 10:30:00,Pay Bill from 2547***126 - JOHN DOE Acc. 4KQ7M2X,Completed,"1,000.00",,"51,000.00",true,Pay Bill Online,254712***126 - JOHN DOE,,4KQ7M2X'


def csv_file(*lines: str) -> bytes:
    return "\n".join(lines).encode()


def test_reads_the_org_portal_export_with_its_preamble_and_shortcode():
    statement = statement_parse(csv_file("Account Holder:,St. Mark's", "Short Code:,600100", "", HEADER, ROW))

    assert statement.shortcode == "600100"
    [row] = statement.rows
    assert (row.line, row.receipt, row.paid_in, row.withdrawn, row.account_number) == (
        5,
        "SLK4H7R2QX",
        1000,
        0,
        "4KQ7M2X",
    )
    assert row.completed_at == datetime(2026, 11, 22, 10, 30, tzinfo=NAIROBI)
    assert row.is_completed and not row.is_reversal


@pytest.mark.parametrize(
    "header",
    [
        "receipt no,completion time,details,transaction status,paid in,withdrawn,a/c no",
        "ReceiptNo,CompletionTime,Details,TransactionStatus,PaidIn,Withdrawn,AccountNo",
        "RECEIPT NO.,COMPLETION TIME,DETAILS,TRANSACTION STATUS,PAID IN,WITHDRAWN,A/C NO.",
    ],
)
def test_column_names_are_matched_loosely(header):
    row = "SLK4H7R2QX,22-11-2026 10:30:00,Pay Bill,Completed,500.00,,ABC"

    [parsed] = statement_parse(csv_file(header, row)).rows

    assert (parsed.receipt, parsed.paid_in, parsed.account_number) == ("SLK4H7R2QX", 500, "ABC")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The file is empty."),
        (b"   \n", "The file is empty."),
        (
            csv_file("Name,Amount", "Grace,500"),
            "No header row with the columns Receipt No., Completion Time and Paid In",
        ),
        (csv_file(HEADER), "The statement has no transactions."),
        (csv_file(HEADER, ROW.replace("SLK4H7R2QX", "not a receipt")), "Line 2: This is not an M-Pesa receipt number"),
        (
            csv_file(HEADER, ROW.replace("2026-11-22 10:30:00", "yesterday")),
            "Line 2: The completion time is not a date",
        ),
        (csv_file(HEADER, ROW.replace('"1,000.00"', "lots")), "Line 2: Paid in is not an amount: lots"),
        (csv_file(HEADER, ROW.replace('"1,000.00"', "1000.50")), "Line 2: Paid in is not whole shillings: 1000.50"),
        (
            csv_file(HEADER, ROW, ROW.replace("Pay Bill from", '=HYPERLINK("http://evil.example","click")')),
            "Line 3: A cell holds a formula",
        ),
        (csv_file(HEADER, ROW.replace(",254712***126 - JOHN DOE,,", ",@SUM(A1),,")), "Line 2: A cell holds a formula"),
        (
            csv_file(HEADER, ROW.replace(",254712***126 - JOHN DOE,,", ",+cmd|' /C calc'!A0,,")),
            "Line 2: A cell holds a formula",
        ),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "Upload the statement as a CSV or Excel (.xlsx) file."),
        (b"PK\x03\x04 not really a zip", "The Excel file cannot be read."),
    ],
)
def test_a_malformed_file_is_refused_with_a_message_naming_the_line(data, message):
    with pytest.raises(StatementError) as refusal:
        statement_parse(data)

    assert str(refusal.value).startswith(message)


def test_a_withdrawal_keeps_its_amount_without_the_sign_and_a_phone_number_is_not_a_formula():
    row = "SLK4H7R2QY,2026-11-22 11:00:00,,Business Payment to +254712345678,Completed,,-2500.00,,,Business Payment,+254712345678,,"

    [parsed] = statement_parse(csv_file(HEADER, row)).rows

    assert (parsed.paid_in, parsed.withdrawn, parsed.other_party) == (0, 2500, "+254712345678")


def test_a_statement_over_20_mb_is_refused():
    with pytest.raises(StatementError, match="at most 20 MB"):
        statement_parse(csv_file(HEADER, ROW) + b" " * STATEMENT_MAX_BYTES)


def test_windows_1252_text_as_excel_saves_csv_is_read():
    data = csv_file(HEADER, ROW.replace("JOHN DOE,,", "JOSÉ NJOROGE,,")).decode().encode("cp1252")

    [parsed] = statement_parse(data).rows

    assert parsed.other_party.endswith("JOSÉ NJOROGE")


def test_the_simulators_export_reads_back_as_written():
    lines = [
        Line(receipt="SLK0000001", at=datetime(2026, 11, 1, 9, tzinfo=NAIROBI), amount=1500, account_number="4KQ7M2X"),
        Line(
            receipt="SLK0000002",
            at=datetime(2026, 11, 1, 10, tzinfo=NAIROBI),
            amount=-700,
            reason_type="Business Payment",
        ),
    ]

    statement = statement_parse(statement_csv(lines, shortcode="600100"))

    assert statement.shortcode == "600100"
    assert [(row.receipt, row.paid_in, row.withdrawn, row.line) for row in statement.rows] == [
        ("SLK0000001", 1500, 0, 6),
        ("SLK0000002", 0, 700, 7),
    ]


def xlsx(rows: list[list[str]], *, formula_at: tuple[int, int] | None = None) -> bytes:
    """A minimal workbook: inline strings, one sheet, as spreadsheet programs write it."""
    sheet_rows = []
    for r, cells in enumerate(rows, start=1):
        xml_cells = []
        for c, value in enumerate(cells):
            ref = f"{chr(65 + c)}{r}"
            if formula_at == (r, c):
                xml_cells.append(f'<c r="{ref}"><f>HYPERLINK("http://evil.example")</f><v>x</v></c>')
            else:
                xml_cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>')
        sheet_rows.append(f'<row r="{r}">{"".join(xml_cells)}</row>')
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="worksheet"/></Relationships>',
        )
        archive.writestr(
            "xl/worksheets/sheet1.xml",
            f'<worksheet xmlns="{main}"><sheetData>{"".join(sheet_rows)}</sheetData></worksheet>',
        )
    return buffer.getvalue()


XLSX_ROWS = [
    ["Short Code:", "600100"],
    ["Receipt No.", "Completion Time", "Details", "Transaction Status", "Paid In", "A/C No."],
    ["SLK4H7R2QX", "2026-11-22 10:30:00", "Pay Bill", "Completed", "2000", "4KQ7M2X"],
]


def test_reads_an_excel_workbook():
    statement = statement_parse(xlsx(XLSX_ROWS))

    assert statement.shortcode == "600100"
    assert [(row.line, row.receipt, row.paid_in) for row in statement.rows] == [(3, "SLK4H7R2QX", 2000)]


def test_refuses_a_formula_cell_in_an_excel_workbook():
    with pytest.raises(StatementError, match=r"^Line 3: A cell holds a formula"):
        statement_parse(xlsx(XLSX_ROWS, formula_at=(3, 2)))


# Bank statements ------------------------------------------------------------------------------

BANK_PREAMBLE = ("Account Name:,St. Mark's Kiambu", "Account Number:,1100223344", "Period:,01/11/2026,30/11/2026", "")
BANK_HEADER = "Transaction Date,Value Date,Narrative,Transaction Reference,Debit,Credit,Running Balance"
BANK_COLUMNS = BankColumns(
    date="Transaction Date", amount="Credit", debit="Debit", reference="Transaction Reference", description="Narrative"
)


def bank_file(*rows: str, header: str = BANK_HEADER) -> bytes:
    return csv_file(*BANK_PREAMBLE, header, *rows)


def test_a_bank_export_is_read_through_its_columns_leaving_out_balances_and_footers():
    data = bank_file(
        ",,Opening balance,,,,0.00",
        '02/11/2026,02/11/2026,MPESA C2B 4KQ7M2X JOHN DOE,FT26306ABCD,,"1,500.00","1,500.00"',
        "03/11/2026,03/11/2026,LEDGER FEE,FT26307WXYZ,30.50,,1469.50",
        ",,Closing balance,,,,1469.50",
        "Totals,,,,30.50,1500.00,",
    )

    statement = bank_statement_parse(data, columns=BANK_COLUMNS)

    assert statement.shortcode == ""
    assert [(r.line, r.receipt, r.details, r.paid_in, r.withdrawn, r.status) for r in statement.rows] == [
        (7, "FT26306ABCD", "MPESA C2B 4KQ7M2X JOHN DOE", 1500, 0, ""),
        (8, "FT26307WXYZ", "LEDGER FEE", 0, 31, ""),
    ]
    assert statement.rows[0].completed_at == datetime(2026, 11, 2, 12, tzinfo=NAIROBI)
    assert statement.rows[0].account_number == "FT26306ABCD"


@pytest.mark.parametrize(
    ("cell", "paid_in", "withdrawn"),
    [
        ("1,000.00", 1000, 0),
        ("-500.00", 0, 500),
        ("(500.00)", 0, 500),
        ("500.00 DR", 0, 500),
        ("1,000.00 CR", 1000, 0),
        ("KES 2,000", 2000, 0),
    ],
)
def test_one_signed_amount_column_says_money_in_or_out(cell, paid_in, withdrawn):
    columns = BankColumns(date="Date", amount="Amount", reference="Ref No", description="Details")

    [row] = bank_statement_parse(
        csv_file("Date,Details,Ref No,Amount", f'02/11/2026,Deposit,R1,"{cell}"'), columns=columns
    ).rows

    assert (row.paid_in, row.withdrawn) == (paid_in, withdrawn)


@pytest.mark.parametrize(
    ("cell", "moment"),
    [
        ("02/11/2026", datetime(2026, 11, 2, 12, tzinfo=NAIROBI)),
        ("2026-11-02", datetime(2026, 11, 2, 12, tzinfo=NAIROBI)),
        ("02-Nov-2026", datetime(2026, 11, 2, 12, tzinfo=NAIROBI)),
        ("02 Nov 2026", datetime(2026, 11, 2, 12, tzinfo=NAIROBI)),
        ("02.11.2026", datetime(2026, 11, 2, 12, tzinfo=NAIROBI)),
        ("02/11/2026 10:30", datetime(2026, 11, 2, 10, 30, tzinfo=NAIROBI)),
        ("46328", datetime(2026, 11, 2, 12, tzinfo=NAIROBI)),
    ],
)
def test_the_dates_kenyan_banks_write_are_read_day_first(cell, moment):
    [row] = bank_statement_parse(bank_file(f"{cell},,Deposit,R1,,100.00,"), columns=BANK_COLUMNS).rows

    assert row.completed_at == moment


def test_money_in_with_cents_cannot_be_whole_shillings_and_is_marked_so():
    [row] = bank_statement_parse(bank_file("30/11/2026,,INTEREST,R9,,12.35,"), columns=BANK_COLUMNS).rows

    assert (row.paid_in, row.status, row.is_completed) == (12, NOT_WHOLE_SHILLINGS, False)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The file is empty."),
        (
            csv_file("Date,Details,Amount", "02/11/2026,Deposit,100"),
            "No header row with the columns Transaction Date, Credit, Debit, Transaction Reference, Narrative",
        ),
        (bank_file(), "The statement has no transactions."),
        (bank_file("02/11/2026,,Deposit,R1,,lots,"), "Line 6: Credit is not an amount: lots"),
        (bank_file("31/02/2026,,Deposit,R1,,100.00,"), "Line 6: The date is not a date: 31/02/2026"),
        (
            bank_file('02/11/2026,,"=HYPERLINK(""http://evil.example"",""pay"")",R1,,100.00,'),
            "Line 6: A cell holds a formula",
        ),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "Upload the statement as a CSV or Excel (.xlsx) file."),
        (b"PK\x03\x04 not really a zip", "The Excel file cannot be read."),
    ],
)
def test_a_bad_bank_file_is_refused_with_a_message_naming_the_line(data, message):
    with pytest.raises(StatementError) as refusal:
        bank_statement_parse(data, columns=BANK_COLUMNS)

    assert str(refusal.value).startswith(message)


def test_a_bank_statement_over_20_mb_is_refused():
    with pytest.raises(StatementError, match="at most 20 MB"):
        bank_statement_parse(
            bank_file("02/11/2026,,Deposit,R1,,100.00,") + b" " * STATEMENT_MAX_BYTES, columns=BANK_COLUMNS
        )


def test_a_bank_workbook_is_read_like_its_csv_and_its_formulas_refused():
    rows = [
        ["Account Name:", "St. Mark's Kiambu"],
        [],
        ["Date", "Description", "Reference", "Money Out", "Money In"],
        ["02/11/2026", "PLEDGE 4KQ7M2X", "CHQ001", "", "2,000.00"],
    ]
    columns = BankColumns(
        date="Date", amount="Money In", debit="Money Out", reference="Reference", description="Description"
    )

    [row] = bank_statement_parse(xlsx(rows), columns=columns).rows

    assert (row.line, row.receipt, row.details, row.paid_in) == (4, "CHQ001", "PLEDGE 4KQ7M2X", 2000)
    with pytest.raises(StatementError, match=r"^Line 4: A cell holds a formula"):
        bank_statement_parse(xlsx(rows, formula_at=(4, 1)), columns=columns)


def test_the_simulators_bank_statement_reads_back_as_written():
    lines = [
        BankLine(date(2026, 11, 2), 1500, "FT1", "MPESA C2B 4KQ7M2X"),
        BankLine(date(2026, 11, 3), -700, "FT2", "CHEQUE 0001"),
    ]
    data = bank_statement_csv(lines)

    header = bank_statement_header(data)
    statement = bank_statement_parse(data, columns=bank_columns_suggest(header.columns))

    assert [(row.receipt, row.paid_in, row.withdrawn, row.line) for row in statement.rows] == [
        ("FT1", 1500, 0, 7),
        ("FT2", 0, 700, 8),
    ]


def test_the_header_is_the_first_row_of_names_after_the_preamble():
    header = bank_statement_header(bank_file("02/11/2026,,Deposit,R1,,100.00,"))

    assert (header.line, header.columns) == (5, BANK_HEADER.split(","))
    with pytest.raises(StatementError, match="No header row was found"):
        bank_statement_header(csv_file("Account:,1100223344", "02/11/2026,Deposit,100.00"))


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (BANK_HEADER.split(","), BANK_COLUMNS),
        (
            ["Tran Date", "Description", "Reference", "Money Out", "Money In", "Balance"],
            BankColumns(
                date="Tran Date", amount="Money In", debit="Money Out", reference="Reference", description="Description"
            ),
        ),
        (
            ["Posting Date", "Details", "Ref No", "Amount"],
            BankColumns(date="Posting Date", amount="Amount", reference="Ref No", description="Details"),
        ),
        (["Foo", "Bar", "Baz"], BankColumns(date="", amount="")),
    ],
)
def test_columns_are_suggested_by_the_names_banks_give_them(header, expected):
    assert bank_columns_suggest(header) == expected
