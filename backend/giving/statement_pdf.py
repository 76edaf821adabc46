"""A yearly statement of giving as a PDF (reportlab), in English or Kiswahili: per organization, each
payment's date, what it was for, its method and M-Pesa code, the organization's total, and the total
of the year. An approved charity's section names its registration number and ends with a signature
line (``Organization.approved_charity``, ``statement_signatory``)."""

from io import BytesIO

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from common.money import format_ksh
from giving.selectors import Statement, StatementSection
from payments.models import Payment


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _section(section: StatementSection, styles: dict[str, object]) -> list[object]:
    organization = section.organization
    flow: list[object] = [Paragraph(_escape(organization.name), styles["Heading2"])]
    if organization.registration_number:
        flow.append(
            Paragraph(
                _escape(_("Registration number: %(number)s") % {"number": organization.registration_number}),
                styles["Normal"],
            )
        )
    rows: list[list[str]] = [[_("Date"), _("For"), _("Method"), _("M-Pesa code"), _("Amount")]]
    for line in section.lines:
        what = _("Pledge: %(campaign)s") if line.is_pledge else _("Gift: %(campaign)s")
        rows.append(
            [
                line.given_on.strftime("%d/%m/%Y"),
                (what % {"campaign": line.campaign})[:48],
                str(Payment.Provider(line.provider).label)[:28],
                line.mpesa_receipt or "-",
                format_ksh(line.amount),
            ]
        )
    rows.append(
        [
            _("Total to %(organization)s") % {"organization": organization.name[:40]},
            "",
            "",
            "",
            format_ksh(section.total),
        ]
    )
    table = Table(rows, colWidths=[22 * mm, 62 * mm, 38 * mm, 28 * mm, 24 * mm], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONT", (0, -1), (-1, -1), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 8),
                ("SPAN", (0, -1), (3, -1)),
                ("ALIGN", (-1, 0), (-1, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
                ("LINEABOVE", (0, -1), (-1, -1), 0.5, colors.black),
            ]
        )
    )
    flow += [Spacer(1, 2 * mm), table]
    if organization.approved_charity:
        flow += [
            Spacer(1, 10 * mm),
            Paragraph("_" * 40, styles["Normal"]),
            Paragraph(
                _escape(
                    organization.statement_signatory or _("For %(organization)s") % {"organization": organization.name}
                ),
                styles["Normal"],
            ),
            Paragraph(_("Signature and date"), styles["Normal"]),
        ]
    return [KeepTogether(flow[:3]), *flow[3:], Spacer(1, 8 * mm)]


def statement_pdf(*, statement: Statement, language: str) -> bytes:
    """The statement as PDF bytes, in ``language`` ('en' or 'sw')."""
    buffer = BytesIO()
    with translation.override(language):
        styles = getSampleStyleSheet()
        title = _("Statement of giving %(year)s") % {"year": statement.year}
        document = SimpleDocTemplate(
            buffer, pagesize=A4, title=title, leftMargin=14 * mm, rightMargin=14 * mm, topMargin=16 * mm
        )
        flow: list[object] = [
            Paragraph(_escape(title), styles["Title"]),
            Paragraph(
                _escape(_("Given by: %(name)s") % {"name": statement.name or statement.contact}), styles["Normal"]
            ),
            Paragraph(
                _escape(
                    _("From 1 January to 31 December %(year)s. Issued on %(today)s by Harambee.")
                    % {"year": statement.year, "today": timezone.localdate().strftime("%d/%m/%Y")}
                ),
                styles["Normal"],
            ),
            Spacer(1, 6 * mm),
        ]
        if not statement.sections:
            flow.append(Paragraph(_("No payments in this year."), styles["Normal"]))
        for section in statement.sections:
            flow += _section(section, styles)
        flow.append(
            Paragraph(
                _escape(
                    _("Total given in %(year)s: %(total)s")
                    % {"year": statement.year, "total": format_ksh(statement.total)}
                ),
                styles["Heading2"],
            )
        )
        document.build(flow)
    return buffer.getvalue()
