"""The statement upload endpoints against generated hostile files (Hypothesis): broken, truncated and
odd CSVs and workbooks (bad row and cell references, cells far right, formulas, DTDs, shared strings
that are not there, cut-off zips). Every answer is a preview (201, 200) or a refusal in the one error
shape, never a 5xx. Bounded and repeatable: derandomized, no example database."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

# no_cover: generated inputs find bugs, not lines (README, "Coverage").
pytestmark = [pytest.mark.django_db, pytest.mark.no_cover]

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
FUZZ = hypothesis_settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
NO_LIMIT = (1_000_000, 3600)

cell_texts = st.one_of(
    st.sampled_from(
        ["Receipt No.", "Completion Time", "Paid In", "SLK4H7R2QX", "2026-11-22 10:30:00", "1,000.00", "=1+1", ""]
    ),
    # Characters XML allows, so that a workbook is mostly well-formed and read up to its hostile part.
    st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=30),
    st.text(alphabet='",\r\n\\', max_size=10),
)
references = st.one_of(
    st.sampled_from(["A1", "B2", "1A1", "JXLKR1", "XFD1048576", "", "a1", "A0", "AA" + "9" * 12]),
    st.text(alphabet="AZaz019 -", max_size=12),
)


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    rows = draw(st.lists(st.lists(cell_texts, max_size=50), max_size=8))
    text = "\n".join(",".join(row) for row in rows)
    encoding = draw(st.sampled_from(["utf-8", "utf-16", "cp1252"]))
    data = text.encode(encoding, errors="replace")
    return draw(st.sampled_from([data, data.replace(b"\n", b"\r"), b'"' + data, data * 3]))


@st.composite
def xlsx_files(draw: st.DrawFn) -> bytes:
    rows = []
    for _ in range(draw(st.integers(0, 5))):
        cells = []
        for _ in range(draw(st.integers(0, 5))):
            kind = draw(st.sampled_from(["inlineStr", "s", "n", "str", "b"]))
            text = draw(cell_texts).replace("&", "&amp;").replace("<", "&lt;")
            inner = (
                f"<is><t>{text}</t></is>"
                if kind == "inlineStr"
                else draw(st.sampled_from([f"<v>{text}</v>", "<v>0</v>", "<v>99</v>", "<f>SUM(A1)</f><v>1</v>", ""]))
            )
            cells.append(f'<c r="{draw(references)}" t="{kind}">{inner}</c>')
        number = draw(st.one_of(st.integers(-1, 1_100_000).map(str), st.sampled_from(["abc", "", "1e3", "٣"])))
        rows.append(f'<row r="{number}">{"".join(cells)}</row>')
    # The usual shapes more often than the broken ones, so that most files are read up to their rows.
    prologue = draw(st.sampled_from(["", "", "", "<!DOCTYPE worksheet>", "<?xml version='1.0'?>", "<!--x-->"]))
    sheet = f'{prologue}<worksheet xmlns="{MAIN}"><sheetData>{"".join(rows)}</sheetData></worksheet>'
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))) as archive:
        archive.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        archive.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Target="{draw(st.sampled_from(["worksheets/sheet1.xml"] * 4 + ["/xl/none.xml", "../x"]))}"/>'
            "</Relationships>",
        )
        if draw(st.booleans()):
            archive.writestr(
                "xl/sharedStrings.xml", f'<sst xmlns="{MAIN}"><si><t>SLK4H7R2QX</t></si><si><t/></si></sst>'
            )
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    data = buffer.getvalue()
    return data[: draw(st.integers(4, len(data)))] if draw(st.integers(0, 4)) == 0 else data


@pytest.fixture
def upload_as_treasurer(treasurer_client, campaign, paybill, settings):
    settings.RATE_LIMIT_STATEMENT_FILE_USER = settings.RATE_LIMIT_STATEMENT_FILE_ORGANIZATION = NO_LIMIT
    bank = campaign.organization.collection_accounts.create(
        kind="bank", bank_name="KCB", account_name="St. Mark's", account_number="1100223344"
    )
    base = f"/api/orgs/{campaign.organization_id}/statement-imports"

    def upload(data: bytes, *, to_bank: bool, suffix: str = "") -> tuple[int, dict]:
        response = treasurer_client.post(
            base + suffix,
            {
                "account_id": (bank if to_bank else paybill).pk,
                "file": SimpleUploadedFile("statement", data),
                "date_column": "Completion Time",
                "amount_column": "Paid In",
                "reference_column": "Receipt No.",
            },
            content_type=MULTIPART_CONTENT,
        )
        return response.status_code, response.json()

    return upload


def assert_answered_in_the_api_shape(status: int, body: dict) -> None:
    assert status < 500, body
    if status >= 400:
        assert set(body) == {"detail", "code", "field_errors"}, body
        assert body["detail"]


@FUZZ
@given(data=st.one_of(csv_files(), xlsx_files()), to_bank=st.booleans(), columns_offer=st.booleans())
def test_a_hostile_statement_file_is_refused_in_the_error_shape_never_a_server_error(
    upload_as_treasurer, data, to_bank, columns_offer
):
    status, body = upload_as_treasurer(
        data, to_bank=to_bank or columns_offer, suffix="/bank-columns" if columns_offer else ""
    )

    assert_answered_in_the_api_shape(status, body)
