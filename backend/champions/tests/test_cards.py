"""The harambee cards PDF, read back: its text (pypdf) and its QR codes (pypdfium2 + zxing-cpp)."""

import io

import pypdfium2
import pytest
import zxingcpp
from pypdf import PdfReader
from reportlab.lib.pagesizes import A6

from champions.tests.support import a_champion

pytestmark = pytest.mark.django_db


def test_the_cards_are_a6_pages_naming_the_champion_with_the_paybill_and_a_qr_code_of_their_page(
    campaign, member, organizer, organizer_client, settings
):
    settings.SITE_URL = "https://harambee.example"
    first = a_champion(campaign, organizer)
    second = a_champion(campaign, member)

    answer = organizer_client.get(f"/api/campaigns/{campaign.pk}/harambee-cards.pdf")

    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(answer.content))
    assert len(reader.pages) == 2
    for page, champion in zip(reader.pages, (first, second), strict=True):
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == tuple(round(v) for v in A6)
        text = page.extract_text()
        assert champion.name in text and champion.code in text and "600100" in text
        assert "Harambee card / Kadi ya harambee" in text
    document = pypdfium2.PdfDocument(answer.content)
    for index, champion in enumerate((first, second)):
        image = document[index].render(scale=4).to_pil()
        decoded = [barcode.text for barcode in zxingcpp.read_barcodes(image)]
        assert decoded == [f"https://harambee.example/campaign/{campaign.pk}/c/{champion.code}"]
    assert f"No. {second.card.number:04d}" in reader.pages[1].extract_text()
