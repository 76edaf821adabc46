import io
import re

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from PIL import ExifTags, GifImagePlugin, Image

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from campaigns.tests.wizard_support import animated_gif_bytes, gps_exif, image_bytes
from campaigns.uploads import MAX_FRAMES, MEDIA_MAX_BYTES

pytestmark = pytest.mark.django_db

TYPE_MESSAGE = "Only JPG, GIF, PNG images and MP4, WebM videos are allowed"
SIZE_MESSAGE = "File size must not exceed 25MB"
# A stored name: uploads/<14-digit timestamp>-<16 random hex digits>.<extension>
STORED_NAME = re.compile(r"^uploads/\d{14}-[0-9a-f]{16}(?:-\d+)?\.(?:jpg|png|gif|webp|mp4|webm)$")
MP4_HEAD = b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00isomiso2avc1mp41" + b"\x00" * 64
WEBM_HEAD = b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82\x84webm"


def upload(client, name: str, content: bytes, content_type: str = "application/octet-stream"):
    return client.post(
        "/api/media", {"file": SimpleUploadedFile(name, content, content_type)}, content_type=MULTIPART_CONTENT
    )


def stored_name(url: str) -> str:
    assert url.startswith(settings.MEDIA_URL)
    name = url.removeprefix(settings.MEDIA_URL)
    assert STORED_NAME.match(name), name
    return name


def stored_files() -> list[str]:
    return default_storage.listdir("uploads")[1] if default_storage.exists("uploads") else []


def stored_image(url: str) -> tuple[Image.Image, bytes]:
    with default_storage.open(stored_name(url)) as file:
        content = file.read()
    image = Image.open(io.BytesIO(content))
    image.load()
    return image, content


class TestCoverRenditions:
    def test_a_campaign_with_an_uploaded_cover_lists_its_renditions(self, signed_in_client):
        body = upload(signed_in_client, "cover.jpg", image_bytes("JPEG", size=(2000, 1000)), "image/jpeg").json()
        campaign = CampaignFactory.create(image_url=body["url"])

        shown = signed_in_client.get(f"/api/campaigns/{campaign.pk}").json()

        assert shown["cover_srcset"] == body["srcset"]
        for entry in shown["cover_srcset"]:
            assert stored_image(entry["url"])[0].format == "WEBP"

    @pytest.mark.parametrize(
        "image_url", ["/static/campaigns/covers/water.svg", "https://example.com/cover.jpg", "/media/other/x.jpg", ""]
    )
    def test_other_covers_have_none(self, api_client, image_url):
        campaign = CampaignFactory.create(image_url=image_url)

        assert api_client.get(f"/api/campaigns/{campaign.pk}").json()["cover_srcset"] == []


class TestImages:
    def test_a_png_is_stored_with_a_webp_copy_and_renditions_for_phones(
        self, signed_in_client, django_assert_num_queries
    ):
        with django_assert_num_queries(3):  # session, user, the upload counter (an upsert; in Redis when there is one)
            answer = upload(signed_in_client, "cover.png", image_bytes("PNG", size=(2000, 1000)), "image/png")

        assert answer.status_code == 201
        body = answer.json()
        assert body["media_type"] == "image"
        assert body["url"].endswith(".png")
        original, _ = stored_image(body["url"])
        assert (original.format, original.size) == ("PNG", (2000, 1000))
        webp, _ = stored_image(body["webp_url"])
        assert (webp.format, webp.size) == ("WEBP", (2000, 1000))
        assert [entry["width"] for entry in body["srcset"]] == [480, 960, 1440]
        for entry in body["srcset"]:
            rendition, _ = stored_image(entry["url"])
            assert (rendition.format, rendition.size) == ("WEBP", (entry["width"], entry["width"] // 2))
            assert entry["url"] == body["webp_url"].replace(".webp", f"-{entry['width']}.webp")

    def test_a_picture_narrower_than_the_renditions_is_listed_once_at_its_own_width(self, signed_in_client):
        body = upload(signed_in_client, "small.jpg", image_bytes("JPEG", size=(300, 200))).json()

        assert [entry["width"] for entry in body["srcset"]] == [300]
        assert stored_image(body["srcset"][0]["url"])[0].size == (300, 200)

    def test_a_real_png_with_gps_exif_comes_back_without_it(self, signed_in_client):
        sent = image_bytes("PNG", exif=gps_exif())
        assert Image.open(io.BytesIO(sent)).getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the test file has it

        body = upload(signed_in_client, "holiday.png", sent, "image/png").json()

        for url in [body["url"], body["webp_url"], *(entry["url"] for entry in body["srcset"])]:
            image, content = stored_image(url)
            assert "exif" not in image.info
            assert not image.getexif()
            assert b"eXIf" not in content and b"Exif" not in content and b"PhoneMaker" not in content

    def test_a_jpeg_loses_its_gps_position_and_is_turned_upright_by_its_orientation(self, signed_in_client):
        exif = gps_exif()
        exif[ExifTags.Base.Orientation] = 6  # taken sideways: to show, turn 90 degrees clockwise
        sent = image_bytes("JPEG", size=(80, 40), exif=exif.tobytes())

        body = upload(signed_in_client, "photo.jpeg", sent, "image/jpeg").json()

        image, content = stored_image(body["url"])
        assert (image.format, image.size) == ("JPEG", (40, 80))
        assert not image.getexif()
        assert b"PhoneMaker" not in content

    def test_a_palette_png_keeps_its_transparent_colour(self, signed_in_client):
        palette = Image.new("P", (20, 10), 0)
        palette.putpalette([255, 0, 0, 0, 0, 255])
        palette.paste(1, (0, 0, 10, 10))
        buffer = io.BytesIO()
        palette.save(buffer, "PNG", transparency=0)

        body = upload(signed_in_client, "logo.png", buffer.getvalue(), "image/png").json()

        webp, _ = stored_image(body["webp_url"])
        rgba = webp.convert("RGBA")
        transparent, blue = rgba.getpixel((15, 5)), rgba.getpixel((5, 5))
        assert isinstance(transparent, tuple) and isinstance(blue, tuple)
        assert transparent[3] == 0
        assert blue[2] > 240 and blue[3] == 255  # WebP is lossy: near enough the palette's blue

    def test_an_animated_gif_keeps_its_frames(self, signed_in_client):
        body = upload(signed_in_client, "wave.gif", animated_gif_bytes(frames=3), "image/gif").json()

        gif, _ = stored_image(body["url"])
        webp, _ = stored_image(body["webp_url"])
        assert (gif.format, getattr(gif, "n_frames", 1)) == ("GIF", 3)
        assert (webp.format, getattr(webp, "n_frames", 1)) == ("WEBP", 3)


def gif_of_identical_frames(*, frames: int, size: tuple[int, int]) -> bytes:
    """A GIF repeating one full-size frame, written block by block: a few hundred KB that would
    decode to frames x size pixels, without this test holding them all."""
    one = io.BytesIO()
    Image.new("P", size, 1).save(one, "GIF")
    single = one.getvalue()
    flags = single[10]
    header_length = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    assert single[header_length] == 0x2C, "Pillow wrote the image descriptor right after the header"
    return single[:header_length] + single[header_length:-1] * frames + b";"


class TestDecodingCost:
    TOO_LARGE = "Images may have at most 16 megapixels, over all the frames of an animation, and 100 frames."

    def test_a_gif_of_50_frames_of_2000_by_2000_is_refused_before_any_frame_is_decoded(self, signed_in_client):
        content = gif_of_identical_frames(frames=50, size=(2000, 2000))
        assert len(content) < 300_000
        before = stored_files()

        answer = upload(signed_in_client, "bomb.gif", content, "image/gif")

        assert answer.status_code == 422
        assert answer.json()["field_errors"] == {"file": self.TOO_LARGE}
        assert stored_files() == before

    def test_the_frames_of_a_gif_are_counted_only_up_to_one_past_the_limit(self, signed_in_client, monkeypatch):
        seeks = []
        real_seek = GifImagePlugin.GifImageFile.seek

        def counted_seek(image, frame):
            seeks.append(frame)
            return real_seek(image, frame)

        monkeypatch.setattr(GifImagePlugin.GifImageFile, "seek", counted_seek)

        answer = upload(signed_in_client, "frames.gif", gif_of_identical_frames(frames=5_000, size=(1, 1)), "image/gif")

        assert answer.json()["field_errors"] == {"file": self.TOO_LARGE}
        assert max(seeks) == MAX_FRAMES

    def test_a_still_picture_over_16_megapixels_is_refused(self, signed_in_client):
        answer = upload(signed_in_client, "huge.png", image_bytes("PNG", size=(4001, 4000)), "image/png")

        assert answer.status_code == 422
        assert answer.json()["code"] == "image_too_large"

    def test_a_large_picture_is_made_at_most_2560_pixels_on_each_side_before_it_is_stored(self, signed_in_client):
        body = upload(signed_in_client, "tall.png", image_bytes("PNG", size=(1500, 3000)), "image/png").json()

        original, _ = stored_image(body["url"])
        webp, _ = stored_image(body["webp_url"])
        assert original.size == webp.size == (1280, 2560)

    def test_an_animation_of_101_frames_is_refused(self, signed_in_client):
        answer = upload(signed_in_client, "long.gif", animated_gif_bytes(frames=101), "image/gif")

        assert answer.json()["code"] == "image_too_large"

    def test_an_animation_of_100_frames_within_16_megapixels_stays_animated(self, signed_in_client):
        answer = upload(signed_in_client, "long.gif", animated_gif_bytes(frames=100), "image/gif")

        assert answer.status_code == 201
        gif, _ = stored_image(answer.json()["url"])
        webp, _ = stored_image(answer.json()["srcset"][0]["url"])
        assert getattr(gif, "n_frames", 1) == getattr(webp, "n_frames", 1) == 100

    def test_each_user_may_upload_a_limited_number_of_covers_an_hour(self, signed_in_client, make_api_client, settings):
        settings.RATE_LIMIT_MEDIA_UPLOAD = (2, 3600)
        answers = [upload(signed_in_client, "cover.png", image_bytes("PNG"), "image/png") for _ in range(3)]
        someone_else = make_api_client(signed_in_as=UserFactory())

        assert [answer.status_code for answer in answers] == [201, 201, 429]
        assert answers[2].json()["detail"] == "Too many uploads. Please wait a while and try again."
        assert upload(someone_else, "cover.png", image_bytes("PNG"), "image/png").status_code == 201


class TestVideos:
    @pytest.mark.parametrize(("head", "extension"), [(MP4_HEAD, "mp4"), (WEBM_HEAD, "webm")])
    def test_mp4_and_webm_videos_are_stored_as_sent(self, signed_in_client, head, extension):
        content = head + b"\x01" * 1000

        answer = upload(signed_in_client, "clip.bin", content)

        assert answer.status_code == 201
        body = answer.json()
        assert (body["media_type"], body["webp_url"], body["srcset"]) == ("video", "", [])
        assert body["url"].endswith(f".{extension}")
        with default_storage.open(stored_name(body["url"])) as file:
            assert file.read() == content

    @pytest.mark.parametrize(
        "head",
        [
            b"\x00\x00\x00\x14ftypqt  \x00\x00\x00\x00qt  ",  # QuickTime .mov
            b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic",  # an iPhone HEIC photo
            b"\x1a\x45\xdf\xa3\xa3\x42\x86\x81\x01\x42\x82\x88matroska",  # Matroska .mkv
        ],
    )
    def test_other_containers_are_refused(self, signed_in_client, head):
        answer = upload(signed_in_client, "clip.mp4", head + b"\x00" * 100, "video/mp4")

        assert answer.status_code == 422
        assert answer.json()["field_errors"] == {"file": TYPE_MESSAGE}


class TestRefusals:
    def test_a_26_mb_file_is_refused_and_nothing_is_stored(self, signed_in_client):
        content = MP4_HEAD + b"\x00" * (26 * 1024 * 1024 - len(MP4_HEAD))
        before = stored_files()

        answer = upload(signed_in_client, "long.mp4", content, "video/mp4")

        assert answer.status_code == 422
        assert answer.json() == {
            "detail": SIZE_MESSAGE,
            "code": "file_too_large",
            "field_errors": {"file": SIZE_MESSAGE},
        }
        assert stored_files() == before

    def test_a_file_of_exactly_25_mb_is_accepted(self, signed_in_client):
        content = MP4_HEAD + b"\x00" * (MEDIA_MAX_BYTES - len(MP4_HEAD))

        assert upload(signed_in_client, "long.mp4", content, "video/mp4").status_code == 201

    @pytest.mark.parametrize(
        "content",
        [
            b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff" + b"\x00" * 200,  # a Windows executable
            b"\x7fELF\x02\x01\x01" + b"\x00" * 200,  # a Linux executable
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
            b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,  # a PNG signature and nothing valid after it
        ],
        ids=["windows-exe", "elf", "svg", "broken-png"],
    )
    def test_a_png_that_is_really_something_else_is_refused(self, signed_in_client, content):
        answer = upload(signed_in_client, "cover.png", content, "image/png")

        assert answer.status_code == 422
        assert answer.json()["detail"] == TYPE_MESSAGE

    def test_a_webp_image_is_not_one_of_the_allowed_types(self, signed_in_client):
        answer = upload(signed_in_client, "cover.webp", image_bytes("WEBP"), "image/webp")

        assert answer.json()["field_errors"] == {"file": TYPE_MESSAGE}

    def test_without_a_file_the_user_is_asked_for_one(self, signed_in_client):
        answer = signed_in_client.post("/api/media", {}, content_type=MULTIPART_CONTENT)

        assert answer.status_code == 422
        assert answer.json()["field_errors"] == {"file": "Please choose a file to upload."}

    def test_signed_out_visitors_cannot_upload(self, api_client):
        answer = upload(api_client, "cover.png", image_bytes("PNG"), "image/png")

        assert answer.status_code == 401
