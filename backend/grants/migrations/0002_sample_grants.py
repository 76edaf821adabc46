"""The eight sample grants of spec section 9, so the search has something to find on day one.

They are illustrations (their links go to example.org); operators add and edit real grants in
the Django admin. Amounts cover the four brackets, with one grant on each side of $25,000.
"""

from datetime import date

from django.db import migrations

SAMPLE_GRANTS = [
    {
        "title": "Rural Literacy and Schools Grant",
        "organization": "Elimu Bora Foundation",
        "category": "education",
        "amount_usd": 25_000,
        "location": "Kenya",
        "deadline": date(2027, 2, 15),
        "description": (
            "Supports churches, schools and community-based organizations running literacy programmes for "
            "primary-school children in rural Kenya: reading clubs, school libraries, books and teacher training."
        ),
        "website": "https://example.org/grants/rural-literacy",
    },
    {
        "title": "Clean Water for Communities Fund",
        "organization": "Maji Safi Trust",
        "category": "water_sanitation",
        "amount_usd": 25_001,
        "location": "East Africa",
        "deadline": date(2027, 1, 31),
        "description": (
            "Funds boreholes, rainwater harvesting and sanitation facilities for schools, health centres and "
            "villages without safe water. Registered NGOs and faith-based organizations may apply; a hygiene "
            "training plan is required."
        ),
        "website": "https://example.org/grants/clean-water",
    },
    {
        "title": "Maternal and Child Health Initiative",
        "organization": "Afya Mashinani Fund",
        "category": "health",
        "amount_usd": 75_000,
        "location": "Kenya",
        "deadline": date(2027, 3, 31),
        "description": (
            "Grants for community health programmes that improve care for mothers and children: antenatal "
            "clinics, nutrition, immunization outreach and training of community health volunteers. Open to "
            "mission hospitals, church health ministries and community-based organizations."
        ),
        "website": "https://example.org/grants/maternal-child-health",
    },
    {
        "title": "Youth Leadership and Skills Fund",
        "organization": "Vijana Forward",
        "category": "youth",
        "amount_usd": 40_000,
        "location": "Nairobi, Kenya",
        "deadline": date(2027, 1, 15),
        "description": (
            "Mentorship, vocational training and leadership programmes for young people aged 15 to 24 in "
            "Nairobi's informal settlements. Youth groups, churches and community organizations are welcome."
        ),
        "website": "https://example.org/grants/youth-leadership",
    },
    {
        "title": "Women's Economic Empowerment Grant",
        "organization": "Mama Afrika Foundation",
        "category": "women",
        "amount_usd": 15_000,
        "location": "Africa",
        "deadline": date(2026, 12, 20),
        "description": (
            "Small grants for savings groups, business training and start-up capital for women and widows. "
            "Women's groups, cooperatives and community-based organizations led by women are encouraged to apply."
        ),
        "website": "https://example.org/grants/women-empowerment",
    },
    {
        "title": "Smallholder Farmers Resilience Grant",
        "organization": "Shamba Growth Partners",
        "category": "agriculture",
        "amount_usd": 120_000,
        "location": "Sub-Saharan Africa",
        "deadline": date(2027, 4, 30),
        "description": (
            "Helps smallholder farmers adapt to drought with climate-smart farming, drip irrigation, seed banks "
            "and links to markets. Farmer cooperatives and NGOs working with at least 200 farming households qualify."
        ),
        "website": "https://example.org/grants/smallholder-resilience",
    },
    {
        "title": "Faith-Based Community Relief Fund",
        "organization": "Good Samaritan Relief Network",
        "category": "faith_based",
        "amount_usd": 60_000,
        "location": "Kenya",
        "deadline": date(2026, 10, 31),
        "description": (
            "Emergency relief through churches and ministries: food distribution, shelter and counselling for "
            "families hit by drought and floods. Congregations must show a relief plan and local partners."
        ),
        "website": "https://example.org/grants/faith-relief",
    },
    {
        "title": "Church Community Development Grant",
        "organization": "Covenant Partners International",
        "category": "community_development",
        "amount_usd": 350_000,
        "location": "Global",
        "deadline": date(2027, 6, 30),
        "description": (
            "Multi-year funding for churches and faith-based organizations building community centres, clinics "
            "and classrooms that serve their whole community. Projects must be led and co-funded locally."
        ),
        "website": "https://example.org/grants/church-community-development",
    },
]


def add_sample_grants(apps, schema_editor):
    Grant = apps.get_model("grants", "Grant")
    for grant in SAMPLE_GRANTS:
        Grant.objects.get_or_create(title=grant["title"], defaults=grant)


def remove_sample_grants(apps, schema_editor):
    Grant = apps.get_model("grants", "Grant")
    Grant.objects.filter(title__in=[grant["title"] for grant in SAMPLE_GRANTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("grants", "0001_initial")]

    operations = [migrations.RunPython(add_sample_grants, remove_sample_grants)]
