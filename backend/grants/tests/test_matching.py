"""The matching function on a labelled set: for each organization, which of two grants fits better.

Each pair states the rule it pins. The profiles and grants are unsaved model instances: the
function is plain Python and needs no database.
"""

from datetime import date
from itertools import product

import pytest

from grants.matching import GOOD_MATCH_SCORE, grant_match, parse_funding_range
from grants.models import Grant, OrganizationProfile


def grant(category: str, amount_usd: int, location: str, description: str, title: str = "A grant") -> Grant:
    return Grant(
        title=title,
        organization="A funder",
        category=category,
        amount_usd=amount_usd,
        location=location,
        deadline=date(2027, 6, 30),
        description=description,
        website="https://example.org",
    )


GRANTS = {
    "literacy": grant(
        "education",
        25_000,
        "Kenya",
        "Supports churches, schools and community-based organizations running literacy programmes for children.",
        "Rural Literacy and Schools Grant",
    ),
    "water": grant(
        "water_sanitation",
        25_001,
        "East Africa",
        "Funds boreholes and sanitation for villages without safe water. Registered NGOs and faith-based "
        "organizations may apply.",
        "Clean Water for Communities Fund",
    ),
    "health": grant(
        "health",
        75_000,
        "Kenya",
        "Community health programmes for mothers and children: clinics, nutrition and immunization for children. "
        "Open to mission hospitals and church health ministries.",
        "Maternal and Child Health Initiative",
    ),
    "youth": grant(
        "youth",
        40_000,
        "Nairobi, Kenya",
        "Mentorship and vocational training for young people. Youth groups and churches are welcome.",
        "Youth Leadership and Skills Fund",
    ),
    "youth_coast": grant(
        "youth",
        40_000,
        "Mombasa, Kenya",
        "Mentorship and vocational training for young people. Youth groups and churches are welcome.",
        "Coast Youth Skills Fund",
    ),
    "women": grant(
        "women",
        15_000,
        "Africa",
        "Savings groups and business training for women and widows; community-based organizations led by women.",
        "Women's Economic Empowerment Grant",
    ),
    "women_large": grant(
        "women",
        300_000,
        "Africa",
        "Savings groups and business training for women and widows; community-based organizations led by women.",
        "Women's Enterprise Programme",
    ),
    "farming": grant(
        "agriculture",
        120_000,
        "Sub-Saharan Africa",
        "Climate-smart farming and irrigation for smallholder farmers. Farmer cooperatives qualify.",
        "Smallholder Farmers Resilience Grant",
    ),
    "relief": grant(
        "faith_based",
        60_000,
        "Kenya",
        "Emergency relief through churches and ministries for families hit by drought and floods.",
        "Faith-Based Community Relief Fund",
    ),
    "church_development": grant(
        "community_development",
        350_000,
        "Global",
        "Funding for churches and faith-based organizations building community centres.",
        "Church Community Development Grant",
    ),
    "ghana_arts": grant("other", 20_000, "Ghana", "Support for artists and theatre groups.", "Arts Fund"),
    "bees": grant("agriculture", 20_000, "Kenya", "Beekeeping equipment and honey processing.", "Honey Value Chains"),
    "church_invited": grant("other", 20_000, "Kenya", "Open to churches and ministries.", "Open Fund"),
    "ngo_invited": grant("other", 20_000, "Kenya", "Open to registered NGOs only.", "Open Fund"),
}


def profile(
    focus_areas: str, organization_type: str, location: str, funding_range: str, mission: str = ""
) -> OrganizationProfile:
    return OrganizationProfile(
        organization_name="An organization",
        mission=mission or "We serve our neighbours.",
        focus_areas=focus_areas,
        organization_type=organization_type,
        location=location,
        funding_range=funding_range,
    )


PROFILES = {
    "nairobi_church": profile("Education, Youth", "Church", "Nairobi, Kenya", "$10,000 - $50,000"),
    "kitui_water": profile("Clean water, sanitation", "Community-based organization", "Kitui, Kenya", "25k-60k"),
    "uganda_farmers": profile("Agriculture; food security", "Farmers' cooperative", "Kampala, Uganda", "over $100,000"),
    "mombasa_women": profile("Women empowerment & savings groups", "NGO", "Mombasa", "Ksh 1,000,000 - 3,000,000"),
    "kisumu_clinic": profile("Health, HIV", "Mission hospital (church)", "Kisumu", "up to $100,000"),
    "relief_ministry": profile(
        "Disaster relief", "Christian ministry", "Kenya", "$50,000-$80,000", mission="Christian relief in crises."
    ),
    "honey_coop": profile("Beekeeping", "Self-help group", "Kenya", "up to 30,000"),
}

# (profile, better grant, worse grant, the rule)
LABELLED_PAIRS = [
    ("nairobi_church", "literacy", "farming", "a focus area in the grant's category beats no common focus"),
    ("nairobi_church", "youth", "women", "same focus strength: in the profile's city beats elsewhere in Africa"),
    ("nairobi_church", "youth", "youth_coast", "a grant in the profile's city beats one in another city"),
    ("nairobi_church", "literacy", "church_development", "within the funding range beats far outside it"),
    ("nairobi_church", "health", "farming", "a focus mentioned in the description beats none"),
    (
        "nairobi_church",
        "church_invited",
        "ngo_invited",
        "a grant inviting the profile's organization type ranks higher",
    ),
    ("kitui_water", "water", "literacy", "the focus beats the location"),
    ("kitui_water", "relief", "youth", "a country-wide grant beats one restricted to another city"),
    ("uganda_farmers", "farming", "water", "the focus area ranks first"),
    ("uganda_farmers", "water", "ghana_arts", "a grant in the profile's region beats one elsewhere in Africa"),
    ("mombasa_women", "women", "health", "focus in the category beats location and range alone"),
    ("mombasa_women", "women", "women_large", "a range in shillings is compared with dollars"),
    ("kisumu_clinic", "health", "relief", "the health focus beats an organization-type match"),
    ("relief_ministry", "relief", "church_development", "a relief focus matches a relief description"),
    ("honey_coop", "bees", "literacy", "a focus outside the vocabulary still matches the grant's words"),
]


@pytest.mark.parametrize(("who", "better", "worse", "rule"), LABELLED_PAIRS, ids=[p[3] for p in LABELLED_PAIRS])
def test_the_better_fitting_grant_scores_higher(who, better, worse, rule):
    better_score, _ = grant_match(PROFILES[who], GRANTS[better])
    worse_score, _ = grant_match(PROFILES[who], GRANTS[worse])

    assert better_score > worse_score, rule


@pytest.mark.parametrize(
    ("who", "best"),
    [
        ("kitui_water", "water"),
        ("uganda_farmers", "farming"),
        ("mombasa_women", "women"),
        ("kisumu_clinic", "health"),
        ("relief_ministry", "relief"),
        ("honey_coop", "bees"),
    ],
)
def test_each_organization_finds_its_own_grant_first_and_above_the_good_match_line(who, best):
    ranked = sorted(GRANTS, key=lambda name: -grant_match(PROFILES[who], GRANTS[name])[0])

    assert ranked[0] == best
    assert grant_match(PROFILES[who], GRANTS[best])[0] >= GOOD_MATCH_SCORE


def test_the_reasons_name_the_focus_the_place_and_the_range():
    score, reasons = grant_match(PROFILES["nairobi_church"], GRANTS["literacy"])

    assert score == 90
    assert reasons == ["Matches your focus on education", "In your location", "Within your funding range"]


def test_reasons_explain_region_type_and_closeness():
    _, reasons = grant_match(PROFILES["nairobi_church"], GRANTS["water"])

    assert reasons == [
        "Open to organizations in your region",
        "Within your funding range",
        "Open to organizations like yours",
    ]
    assert grant_match(PROFILES["uganda_farmers"], GRANTS["church_development"])[1] == [
        "Open to organizations worldwide",
        "Within your funding range",
    ]
    assert "Close to your funding range" in grant_match(PROFILES["nairobi_church"], GRANTS["health"])[1]


def test_scores_stay_between_0_and_100():
    for who, which in product(PROFILES, GRANTS):
        score, _ = grant_match(PROFILES[who], GRANTS[which])
        assert 0 <= score <= 100


def test_a_profile_with_nothing_in_common_scores_0():
    nothing = profile("Astronomy", "Club", "Iceland", "not sure")

    assert grant_match(nothing, GRANTS["literacy"]) == (0, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$25,001 - $50,000", (25_001, 50_000)),
        ("Up to $25,000", (0, 25_000)),
        ("25k-50k", (25_000, 50_000)),
        ("$100,001+", (100_001, float("inf"))),
        ("more than 1.5 million", (1_500_000, float("inf"))),
        ("between 50,000 and 10,000 dollars", (10_000, 50_000)),
        ("$40,000", (0, 40_000)),
        ("KES 1,290,000 - 2,580,000", (10_000, 20_000)),
        ("not sure yet", None),
    ],
)
def test_funding_ranges_are_read_in_dollars(text, expected):
    assert parse_funding_range(text) == expected
