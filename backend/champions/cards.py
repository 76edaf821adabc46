"""Harambee cards: the numbered paper cards champions carry to their circle, and their page's QR code.

One A6 page per champion, both languages on every line (English / Kiswahili): the campaign, the
champion, the card's number, how to pay (the campaign's paybill with the champion's code as account
number), a QR code of the champion's page, and a ruled table to write gifts in. Made with reportlab.
"""

import io

import segno
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from campaigns.models import Campaign
from campaigns.selectors import campaign_accounts
from champions.models import Champion

MARGIN = 6 * mm
QR_SIZE = 26 * mm
TABLE_ROWS = 10


def champion_page_url(champion: Champion) -> str:
    return f"{settings.SITE_URL}{champion.page_path}"


def champion_qr_svg(*, champion: Champion) -> str:
    buffer = io.BytesIO()
    segno.make(champion_page_url(champion), error="m").save(
        buffer, kind="svg", scale=10, border=4, dark="#000000", light="#ffffff", title=champion.name, xmldecl=False
    )
    return buffer.getvalue().decode()


def _both(text: str, **values: object) -> str:
    """``text`` in English and in Kiswahili, 'English / Kiswahili' (once when they are the same)."""
    said = []
    for language in ("en", "sw"):
        with translation.override(language):
            said.append(_(text) % values if values else _(text))
    return said[0] if said[0] == said[1] else f"{said[0]} / {said[1]}"


def _fit(canvas: Canvas, text: str, width: float, font: str, size: float) -> str:
    while text and canvas.stringWidth(text, font, size) > width:
        text = text[:-2] + "…"
    return text


def _qr(canvas: Canvas, url: str, x: float, y: float) -> None:
    widget = QrCodeWidget(url, barLevel="M")
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(QR_SIZE, QR_SIZE, transform=[QR_SIZE / (right - left), 0, 0, QR_SIZE / (top - bottom), 0, 0])
    drawing.add(widget)
    renderPDF.draw(drawing, canvas, x, y)


def _card(canvas: Canvas, *, campaign: Campaign, champion: Champion, number: int, paybill: str) -> None:
    width, height = A6
    inner = width - 2 * MARGIN
    y = height - MARGIN - 4 * mm
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(MARGIN, y, _both(gettext_noop("Harambee card")))
    canvas.drawRightString(width - MARGIN, y, f"No. {number:04d}")
    y -= 5 * mm
    canvas.setFont("Helvetica-Bold", 9)
    canvas.drawString(MARGIN, y, _fit(canvas, campaign.title, inner, "Helvetica-Bold", 9))
    text_width = inner - QR_SIZE - 2 * mm
    qr_top = y - 2 * mm
    _qr(canvas, champion_page_url(champion), width - MARGIN - QR_SIZE, qr_top - QR_SIZE)
    canvas.setFont("Helvetica", 7.5)
    lines = [
        _both(gettext_noop("Champion: %(name)s"), name=champion.name),
        _both(gettext_noop("Card number: %(number)s"), number=number),
    ]
    if paybill:
        lines += [
            _both(gettext_noop("M-Pesa Paybill: %(paybill)s"), paybill=paybill),
            _both(gettext_noop("Account: %(code)s"), code=champion.code),
        ]
    else:
        lines.append(_both(gettext_noop("Account: %(code)s"), code=champion.code))
    lines.append(_both(gettext_noop("Scan the code to give online.")))
    for line in lines:
        y -= 4.2 * mm
        canvas.drawString(MARGIN, y, _fit(canvas, line, text_width, "Helvetica", 7.5))
    y = min(y, qr_top - QR_SIZE) - 5 * mm
    # The ruled table: number, name, phone, amount.
    columns = [MARGIN, MARGIN + 7 * mm, MARGIN + 45 * mm, MARGIN + 70 * mm, width - MARGIN]
    row = 6 * mm
    canvas.setFont("Helvetica-Bold", 6.5)
    headers = ["#", _both(gettext_noop("Name")), _both(gettext_noop("Phone")), _both(gettext_noop("Ksh"))]
    for left, header in zip(columns, headers, strict=False):
        canvas.drawString(left + 1 * mm, y - 4 * mm, header)
    canvas.setLineWidth(0.4)
    top = y
    bottom = y - row * (TABLE_ROWS + 1)
    for i in range(TABLE_ROWS + 2):
        canvas.line(MARGIN, top - i * row, width - MARGIN, top - i * row)
    for left in columns:
        canvas.line(left, top, left, bottom)
    canvas.setFont("Helvetica", 6.5)
    for i in range(1, TABLE_ROWS + 1):
        canvas.drawString(MARGIN + 1 * mm, top - i * row - 4 * mm, str(i))
    y = bottom - 5 * mm
    canvas.setFont("Helvetica", 7)
    canvas.drawString(MARGIN, y, _both(gettext_noop("Cash total")) + ": ________   M-Pesa: ________")
    y -= 4.5 * mm
    canvas.setFont("Helvetica-Oblique", 6.5)
    canvas.drawString(
        MARGIN,
        y,
        _fit(canvas, _both(gettext_noop("Bring this card and the cash to the desk.")), inner, "Helvetica-Oblique", 6.5),
    )


def cards_pdf(*, campaign: Campaign) -> bytes:
    """Every champion's card of ``campaign``, by card number: one A6 page each."""
    paybill = next(
        (account.paybill_number for account in campaign_accounts(campaign=campaign) if account.paybill_number), ""
    )
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A6, pageCompression=1)
    canvas.setTitle(f"{campaign.title}: harambee cards")
    champions = Champion.objects.filter(campaign=campaign).select_related("card").order_by("card__number")
    for champion in champions:
        _card(canvas, campaign=campaign, champion=champion, number=champion.card.number, paybill=paybill)
        canvas.showPage()
    if not champions:
        canvas.setFont("Helvetica", 9)
        canvas.drawString(MARGIN, A6[1] / 2, _both(gettext_noop("No champions yet.")))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
