import pytest

from campaigns.validators import check_media_url, payment_options_errors, youtube_id_from_url

VIDEO = "dQw4w9WgXcQ"
REQUIRED = "This field is required."
NONE_VALID = "Please provide at least one valid payment method to continue."


@pytest.mark.parametrize(
    "link",
    [
        f"https://www.youtube.com/watch?v={VIDEO}",
        f"https://youtube.com/watch?feature=share&v={VIDEO}",
        f"http://m.youtube.com/watch?v={VIDEO}&t=42s",
        f"https://youtu.be/{VIDEO}",
        f"youtu.be/{VIDEO}?si=abc",
        f"https://www.youtube.com/embed/{VIDEO}",
        f"https://www.youtube-nocookie.com/embed/{VIDEO}?autoplay=1",
        f"https://www.youtube.com/shorts/{VIDEO}",
        f"  {VIDEO}  ",
    ],
)
def test_the_video_id_is_taken_from_any_youtube_link(link):
    assert youtube_id_from_url(link) == VIDEO


@pytest.mark.parametrize(
    "link",
    [
        "https://vimeo.com/123456",
        "https://www.youtube.com/watch?v=short",
        f"https://evil.example/watch?v={VIDEO}",
        "https://www.youtube.com/channel/UC123",
        f"https://youtu.be/{VIDEO}<script>",
        "",
    ],
)
def test_other_links_give_no_video_id(link):
    assert youtube_id_from_url(link) is None


@pytest.mark.parametrize(
    "url", ["", "https://example.com/a.jpg", "http://example.com/a.png?x=1", "/static/campaigns/covers/church.svg"]
)
def test_cover_urls_are_http_or_paths_on_this_site(url):
    assert check_media_url(url) is None


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "data:image/png;base64,AAAA", "//evil.example/a.jpg", "ftp://x/a.jpg", "a b", "cover.jpg"],
)
def test_other_cover_urls_are_refused(url):
    assert check_media_url(url) == "Please enter a valid image URL starting with http:// or https://"


def test_a_very_long_cover_url_is_refused():
    assert check_media_url("https://example.com/" + "a" * 500) == "Please keep the URL under 500 characters."


def test_one_to_three_complete_payment_options_are_valid():
    options = [
        {"method": "bank", "details": {"bank_name": "KCB", "account_name": "Trust", "account_no": "1"}},
        {"method": "mpesa_till", "details": {"till_number": "5123456"}},
        {"method": "paybill", "details": {"business_number": "247247", "account_no": "ROOF"}},
    ]

    assert payment_options_errors(options) == {}
    assert payment_options_errors(options[:1]) == {}


def test_an_empty_list_is_valid_only_where_allowed():
    assert payment_options_errors([]) == {"payment_options": NONE_VALID}
    assert payment_options_errors([], allow_empty=True) == {}
    assert payment_options_errors(None, allow_empty=True) == {"payment_options": NONE_VALID}


def test_more_than_three_payment_options_are_refused():
    options: list[object] = [{"method": m, "details": {}} for m in ("bank", "mpesa_till", "paybill", "mpesa")]

    assert payment_options_errors(options) == {"payment_options": "You can add at most 3 payment methods."}


def test_each_method_once_and_every_detail_required():
    errors = payment_options_errors(
        [
            {"method": "mpesa", "details": {"phone_number": "+254712345678"}},
            {"method": "mpesa", "details": {"phone_number": " "}},
            {"method": "paybill", "details": {"business_number": "247247"}},
        ]
    )

    assert errors == {
        "payment_options.1.method": "Each payment method can be used only once.",
        "payment_options.1.phone_number": REQUIRED,
        "payment_options.2.account_no": REQUIRED,
    }


@pytest.mark.parametrize(
    "option", [{"method": "bitcoin", "details": {}}, {"details": {}}, "cash", {"method": "cash", "details": "x"}]
)
def test_malformed_payment_options_are_named(option):
    assert payment_options_errors([option]) != {}


def test_an_over_long_detail_is_refused():
    errors = payment_options_errors([{"method": "cash", "details": {"location": "x" * 101}}])

    assert errors == {"payment_options.0.location": "Please keep this under 100 characters."}
