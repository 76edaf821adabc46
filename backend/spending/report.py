"""The committee's report of a campaign and a period, for the church board or an auditor: a PDF
(reportlab, its chart drawn by reportlab.graphics) and a CSV, both in English and Kiswahili side by
side. Money in by channel, money out by category, the balance, pledges outstanding and every line with
who recorded and who approved it. The figures are ``selectors.accountability_figures``: the public
page's own."""

import io
from collections.abc import Callable, Iterator

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from common.csv_export import csv_cell
from common.money import format_ksh
from spending.models import SpendingCategory, SpendingRecord
from spending.selectors import AccountabilityFigures


def both(text: Callable[[], str]) -> str:
    """``text`` in English and in Kiswahili: 'Money in / Pesa zilizoingia' (the same once: once)."""
    with translation.override("en"):
        english = text()
    with translation.override("sw"):
        swahili = text()
    return english if english == swahili else f"{english} / {swahili}"


def _period(figures: AccountabilityFigures) -> str:
    start = figures.start or figures.campaign.start_date
    end = figures.end or timezone.localdate()
    return f"{start:%Y-%m-%d} to {end:%Y-%m-%d}"


def _category(key: str) -> str:
    return both(lambda: str(SpendingCategory(key).label))


def _status(record: SpendingRecord) -> str:
    if record.reverses_id is not None:
        return both(lambda: _("Reversing entry"))
    if hasattr(record, "reversal"):
        return both(lambda: _("Reversed"))
    return both(lambda: str(record.get_status_display()))


def _person(user: object) -> str:
    return (getattr(user, "full_name", "") or getattr(user, "display_name", "")) if user else ""


def summary_rows(figures: AccountabilityFigures) -> list[tuple[str, int]]:
    """The report's totals, each with its label in both languages."""
    return [
        (both(lambda: _("Money in")), figures.raised),
        (both(lambda: _("Platform fees")), figures.platform_fees),
        (both(lambda: _("Money out")), figures.spent),
        (both(lambda: _("Balance")), figures.left),
        (both(lambda: _("Pledges outstanding")), figures.pledges_outstanding),
    ]


def report_csv_rows(figures: AccountabilityFigures, lines: list[SpendingRecord]) -> Iterator[list[str | int]]:
    yield [both(lambda: _("Section")), both(lambda: _("Item")), both(lambda: _("Amount (KES)"))]
    yield [both(lambda: _("Campaign")), csv_cell(figures.campaign.title), ""]
    yield [both(lambda: _("Period")), _period(figures), ""]
    for label, amount in summary_rows(figures):
        yield [both(lambda: _("Totals")), label, amount]
    for row in figures.in_by_channel:
        yield [both(lambda: _("Money in by channel")), row.label, row.amount]
    for row in figures.spent_by_category:
        yield [both(lambda: _("Money out by category")), _category(row.key), row.amount]
    yield []
    yield [
        both(lambda: _("Date")),
        both(lambda: _("Payee")),
        both(lambda: _("Category")),
        both(lambda: _("Amount (KES)")),
        both(lambda: _("Status")),
        both(lambda: _("Recorded by")),
        both(lambda: _("Approved by")),
        both(lambda: _("Note")),
    ]
    for record in lines:
        yield [
            f"{record.spent_on:%Y-%m-%d}",
            csv_cell(record.payee),
            _category(record.category),
            -record.amount if record.reverses_id else record.amount,
            _status(record),
            csv_cell(_person(record.recorded_by)),
            csv_cell(_person(record.approved_by)),
            csv_cell(record.note),
        ]


def _chart(figures: AccountabilityFigures) -> Drawing:
    """Money in and out over time, cumulative, as two lines."""
    drawing = Drawing(170 * mm, 60 * mm)
    if len(figures.chart) < 2:
        drawing.add(String(0, 30 * mm, both(lambda: _("Not enough days for a chart yet.")), fontSize=9))
        return drawing
    first = figures.chart[0].day
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 15 * mm, 8 * mm, 150 * mm, 48 * mm
    plot.data = [
        [((point.day - first).days, point.money_in) for point in figures.chart],
        [((point.day - first).days, point.money_out) for point in figures.chart],
    ]
    plot.lines[0].strokeColor = colors.HexColor("#047857")
    plot.lines[1].strokeColor = colors.HexColor("#b45309")
    plot.lines[0].strokeWidth = plot.lines[1].strokeWidth = 1.5
    plot.xValueAxis.labelTextFormat = lambda days: ""
    plot.yValueAxis.valueMin = 0
    plot.yValueAxis.labelTextFormat = lambda value: f"{int(value):,}"
    plot.yValueAxis.labels.fontSize = 7
    drawing.add(plot)
    drawing.add(String(15 * mm, 57 * mm, both(lambda: _("Money in")), fontSize=8, fillColor=colors.HexColor("#047857")))
    drawing.add(
        String(80 * mm, 57 * mm, both(lambda: _("Money out")), fontSize=8, fillColor=colors.HexColor("#b45309"))
    )
    return drawing


TABLE_STYLE = TableStyle(
    [
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.grey),
        ("ALIGN", (-1, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)


def _amount_table(title: str, rows: list[tuple[str, int]]) -> Table:
    table = Table(
        [[title, ""], *[[label, format_ksh(amount)] for label, amount in rows]], colWidths=[120 * mm, 50 * mm]
    )
    table.setStyle(TABLE_STYLE)
    return table


def report_pdf(figures: AccountabilityFigures, lines: list[SpendingRecord]) -> bytes:
    """The committee's report as a PDF (A4)."""
    buffer = io.BytesIO()
    styles = getSampleStyleSheet()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        title=figures.campaign.title,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
    )
    cell = styles["BodyText"].clone("cell", fontSize=7, leading=9)
    period, made_on = both(lambda: _("Period")), both(lambda: _("Made on"))
    story: list[object] = [
        Paragraph(both(lambda: _("How the money was used")), styles["Title"]),
        Paragraph(figures.campaign.title.replace("&", "&amp;").replace("<", "&lt;"), styles["Heading2"]),
        Paragraph(f"{period}: {_period(figures)}", styles["Normal"]),
        Paragraph(f"{made_on}: {timezone.localtime():%Y-%m-%d %H:%M}", styles["Normal"]),
        Spacer(1, 6 * mm),
        _amount_table(both(lambda: _("Totals")), summary_rows(figures)),
        Spacer(1, 5 * mm),
        _amount_table(
            both(lambda: _("Money in by channel")), [(row.label, row.amount) for row in figures.in_by_channel]
        ),
        Spacer(1, 5 * mm),
        _amount_table(
            both(lambda: _("Money out by category")),
            [(_category(row.key), row.amount) for row in figures.spent_by_category],
        ),
        Spacer(1, 6 * mm),
        _chart(figures),
        Spacer(1, 6 * mm),
        Paragraph(both(lambda: _("Spending lines and their approvals")), styles["Heading3"]),
    ]
    header = [
        both(lambda: _("Date")),
        both(lambda: _("Payee")),
        both(lambda: _("Category")),
        both(lambda: _("Status")),
        both(lambda: _("Recorded by")),
        both(lambda: _("Approved by")),
        both(lambda: _("Amount (KES)")),
    ]
    rows = [[Paragraph(text, cell) for text in header]]
    for record in lines:
        amount = -record.amount if record.reverses_id else record.amount
        rows.append(
            [
                f"{record.spent_on:%Y-%m-%d}",
                Paragraph(record.payee.replace("&", "&amp;").replace("<", "&lt;"), cell),
                Paragraph(_category(record.category), cell),
                Paragraph(_status(record), cell),
                Paragraph(_person(record.recorded_by), cell),
                Paragraph(_person(record.approved_by), cell),
                f"{amount:,}",
            ]
        )
    table = Table(rows, colWidths=[18 * mm, 32 * mm, 28 * mm, 26 * mm, 22 * mm, 22 * mm, 22 * mm], repeatRows=1)
    table.setStyle(TABLE_STYLE)
    story.append(table)
    document.build(story)
    return buffer.getvalue()


def report_filename(figures: AccountabilityFigures, extension: str) -> str:
    return f"spending-campaign-{figures.campaign.pk}-{figures.end or timezone.localdate():%Y-%m-%d}.{extension}"
