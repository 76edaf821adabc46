"""Demo campaigns for local use. Loaded by ``manage.py load_demo_data`` after the demo accounts.

Twelve active pledging campaigns over several categories and one pending campaign of the demo
organizer. Campaigns are matched by title, so loading again adds nothing. The money counters
are set directly here, as if pledges had been made; in real use only the pledges and donations
services change them.
"""

from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from campaigns.categories import Category
from campaigns.models import Campaign, CampaignCollectionAccount, CampaignLike, CampaignStatus, CampaignType
from campaigns.selectors import LEGACY_OPTION_ACCOUNTS
from collection_accounts.models import CollectionAccount
from collection_accounts.selectors import collection_account_matching
from collection_accounts.validators import account_details_clean
from organizations.models import Organization, OrganizationKind
from organizations.services import organization_choose_for_campaign, organization_create

ORGANIZER = "organizer@harambee.local"
MEMBER = "member@harambee.local"
ADMIN = "admin@harambee.local"
# The organization the demo organizer runs campaigns in, named as a church or ministry would be:
# givers read the name as the one they pay, never a person's (MEMBER's is collection_accounts/demo.py's).
DEMO_ORGANIZATIONS = {
    ORGANIZER: {"name": "Kiambu Revival Ministry", "kind": OrganizationKind.MINISTRY, "county": "Kiambu"},
}
COVERS = "/static/campaigns/covers/"

PAYBILL = {"method": "paybill", "details": {"business_number": "247247", "account_no": "HARAMBEE"}}
BANK = {
    "method": "bank",
    "details": {"bank_name": "Equity Bank Kenya Ltd", "account_name": "Harambee Trust", "account_no": "0170291234567"},
}

DEMO_CAMPAIGNS: list[dict[str, Any]] = [
    {
        "title": "New Sanctuary for PCEA Kikuyu Parish",
        "category": Category.CHURCH,
        "goal": 5_000_000,
        "cover": "church.svg",
        "organizer": ORGANIZER,
        "days": 90,
        "description": "Our congregation has outgrown the old hall. Help us build a sanctuary for 800 worshippers.",
        "story": (
            "For forty years PCEA Kikuyu Parish has worshipped in a hall built for two hundred. Today more than "
            "six hundred members gather every Sunday, many standing outside in the rain.\n\n"
            "The new sanctuary will seat 800, with a Sunday school wing and a hall the whole community can use "
            "for weddings, funerals and harambees. The foundation is already laid; your pledge raises the walls."
        ),
        "payment_options": [PAYBILL, BANK],
    },
    {
        "title": "School Fees for Form One Students in Kibera",
        "category": Category.EDUCATION,
        "goal": 450_000,
        "cover": "school.svg",
        "organizer": ORGANIZER,
        "days": 45,
        "description": "Fifteen bright students from Kibera have secured Form One places. Help them report to school.",
        "story": (
            "Fifteen students from our church's tuition programme scored above 380 marks in KCPE and were called "
            "to national and county schools. Their families cannot raise the fees, uniform and shopping.\n\n"
            "Every Ksh 30,000 sends one student to school for a full year. We will share their report cards with "
            "everyone who pledges."
        ),
        "payment_options": [{"method": "mpesa_till", "details": {"till_number": "5123456"}}],
    },
    {
        "title": "Medical Bills for Mama Wanjiru's Surgery",
        "category": Category.MEDICAL,
        "goal": 800_000,
        "cover": "medical.svg",
        "organizer": MEMBER,
        "days": 30,
        "description": "Mama Wanjiru needs heart surgery at Kenyatta National Hospital. Stand with her family.",
        "story": (
            "Mama Wanjiru has served our women's guild for twenty years. Last month doctors at Kenyatta National "
            "Hospital found a failing heart valve that must be replaced within weeks.\n\n"
            "NHIF covers part of the cost; the family must raise the rest before the operation date. "
            "Your pledge, however small, brings her home to her grandchildren."
        ),
        "payment_options": [{"method": "mpesa", "details": {"phone_number": "+254733000222"}}],
    },
    {
        "title": "Farewell for Mzee Otieno: Funeral Expenses",
        "category": Category.FUNERALS_MEMORIALS,
        "goal": 300_000,
        "cover": "memorial.svg",
        "organizer": MEMBER,
        "days": 30,
        "description": "Help the Otieno family give our beloved elder a dignified send-off in Siaya.",
        "story": (
            "Mzee Joseph Otieno, church elder and teacher to a generation of Siaya children, went to be with the "
            "Lord on Sunday. The family asks for our support with mortuary, transport and burial costs.\n\n"
            "Any amount left over will start a bursary in his name at the school where he taught."
        ),
        "payment_options": [
            {"method": "mpesa", "details": {"phone_number": "+254722000333"}},
            {"method": "cash", "details": {"location": "Otieno home, Ugunja, Siaya"}},
        ],
    },
    {
        "title": "Clean Water Borehole for Kathonzweni Village",
        "category": Category.COMMUNITY,
        "goal": 1_200_000,
        "cover": "water.svg",
        "organizer": ORGANIZER,
        "days": 75,
        "description": "Women in Kathonzweni walk 10 km for water. A borehole will serve 2,000 people.",
        "story": (
            "In Kathonzweni, Makueni County, women and girls walk up to ten kilometres a day to fetch water from a "
            "seasonal river. Girls miss school and families fall sick from unsafe water.\n\n"
            "A surveyed site has good groundwater at 120 metres. The borehole, a solar pump and a water kiosk "
            "will serve 2,000 people, managed by a village committee."
        ),
        "payment_options": [PAYBILL],
    },
    {
        "title": "Football Kits for Mathare Youth League",
        "category": Category.SPORTS,
        "goal": 150_000,
        "cover": "community.svg",
        "organizer": MEMBER,
        "days": 40,
        "description": "Boots, balls and jerseys for 120 young players in Mathare, keeping them off the streets.",
        "story": (
            "Our Saturday league gives 120 boys and girls in Mathare somewhere to be and someone to look up to. "
            "Most play barefoot with a ball made of paper and string.\n\n"
            "Your pledge buys boots, jerseys, balls and first-aid kits for the new season."
        ),
        "payment_options": [{"method": "mpesa_till", "details": {"till_number": "8812345"}}],
    },
    {
        "title": "Emergency Relief for Budalang'i Flood Families",
        "category": Category.EMERGENCY,
        "goal": 2_000_000,
        "cover": "water.svg",
        "organizer": ORGANIZER,
        "days": 30,
        "description": "Floods have displaced 400 families in Budalang'i. Food, blankets and shelter are needed now.",
        "story": (
            "The Nzoia River burst its banks last week and 400 families in Budalang'i have lost their homes and "
            "crops. They are sheltering in schools and churches.\n\n"
            "Together with local churches we are providing food packs, blankets, mosquito nets and clean water. "
            "Every Ksh 5,000 feeds a family for a week."
        ),
        "payment_options": [PAYBILL, BANK, {"method": "mpesa", "details": {"phone_number": "+254712345678"}}],
    },
    {
        "title": "Mission Trip to Turkana: Bibles and Food",
        "category": Category.MISSIONARY,
        "goal": 600_000,
        "cover": "church.svg",
        "organizer": ORGANIZER,
        "days": 60,
        "description": "Our mission team heads to Lodwar in April with Bibles, food and medical supplies.",
        "story": (
            "Twenty volunteers from our fellowship will spend two weeks in Lodwar and the villages around it, "
            "running a medical camp, a children's programme and evening services.\n\n"
            "Pledges cover transport, food relief for 300 households and 500 Turkana-language Bibles."
        ),
        "payment_options": [BANK],
    },
    {
        "title": "Church Roof Repair at ACK St. Peter's Nyeri",
        "category": Category.CHURCH,
        "goal": 350_000,
        "cover": "church.svg",
        "organizer": MEMBER,
        "days": 35,
        "description": "The long rains tore off half of our church roof. Help us repair it before the next season.",
        "story": (
            "Heavy winds during the long rains lifted half of the iron sheets off ACK St. Peter's. Services have "
            "moved under a tent and the Sunday school is closed.\n\n"
            "A local fundi has quoted Ksh 350,000 for new trusses, sheets and gutters. We are nearly there!"
        ),
        "payment_options": [{"method": "paybill", "details": {"business_number": "400200", "account_no": "STPETERS"}}],
    },
    {
        "title": "A Shelter for Nairobi's Stray Dogs",
        "category": Category.ANIMALS,
        "goal": 250_000,
        "cover": "community.svg",
        "organizer": MEMBER,
        "days": 80,
        "description": "Kennels, food and vaccinations for the stray dogs rescued in Kasarani.",
        "story": (
            "Our volunteers rescue injured and abandoned dogs around Kasarani. With no shelter, they recover in "
            "our homes and many cannot be taken in.\n\n"
            "Your pledge builds twenty kennels and pays for rabies vaccinations with the county vet."
        ),
        "payment_options": [{"method": "mpesa", "details": {"phone_number": "+254733000222"}}],
    },
    {
        "title": "Greenhouse for the Nyandarua Women's Group",
        "category": Category.BUSINESS,
        "goal": 500_000,
        "cover": "farm.svg",
        "organizer": ORGANIZER,
        "days": 70,
        "description": "Thirty women farmers want to grow tomatoes all year round. A greenhouse makes it possible.",
        "story": (
            "The Tumaini Women's Group in Ol Kalou has farmed together for five years. Frost and hail destroy "
            "their open-field tomatoes every cold season.\n\n"
            "Two greenhouses with drip irrigation will let them harvest all year, pay school fees and employ "
            "young people from the village."
        ),
        "payment_options": [BANK, {"method": "cash", "details": {"location": "Ol Kalou PCEA Church office"}}],
    },
    {
        "title": "Dialysis Support for Brian Kiprotich",
        "category": Category.MEDICAL,
        "goal": 1_500_000,
        "cover": "medical.svg",
        "organizer": ORGANIZER,
        "days": 50,
        "description": "Brian, 24, needs dialysis three times a week while he waits for a kidney transplant.",
        "story": (
            "Brian Kiprotich, a young teacher from Eldoret, was diagnosed with kidney failure in January. He needs "
            "dialysis three times a week at Moi Teaching and Referral Hospital.\n\n"
            "His brother is a matching donor. Your pledges cover dialysis until the transplant and the operation itself."
        ),
        "payment_options": [PAYBILL, {"method": "mpesa", "details": {"phone_number": "+254711222333"}}],
    },
]

PENDING_CAMPAIGN: dict[str, Any] = {
    "title": "Youth Camp 2026 at Brackenhurst",
    "category": Category.EVENTS,
    "goal": 400_000,
    "cover": "community.svg",
    "organizer": ORGANIZER,
    "days": 85,
    "description": "A week of worship, mentorship and fun for 150 young people from our parishes.",
    "story": (
        "Every December our parishes take their young people to camp. This year 150 teenagers have signed up "
        "for a week of Bible study, mentorship, sports and career talks at Brackenhurst, Limuru."
    ),
    "payment_options": [PAYBILL],
}

# Who likes what (by index in DEMO_CAMPAIGNS), so admins see like counts.
DEMO_LIKES = {MEMBER: [0, 1, 4, 6], ADMIN: [0, 2, 6]}


def _organization(organizer: User) -> Organization:
    """The organizer's named organization (made once), else the one they own."""
    details = DEMO_ORGANIZATIONS.get(organizer.email)
    if details and not Organization.objects.filter(memberships__user=organizer).exists():
        organization_create(user=organizer, town="", registration_number="", **details)
    return organization_choose_for_campaign(user=organizer, organization_id=None)


def _campaign(fields: dict[str, Any], *, status: str, organizers: dict[str, User]) -> Campaign:
    campaign = Campaign.objects.filter(title=fields["title"]).first()
    if campaign is not None:
        return campaign
    today = timezone.localdate()
    organizer = organizers[fields["organizer"]]
    campaign = Campaign.objects.create(
        type=CampaignType.PLEDGING,
        status=status,
        organizer=organizer,
        organization=_organization(organizer),
        title=fields["title"],
        description=fields["description"],
        story=fields["story"],
        category=fields["category"],
        goal=fields["goal"],
        image_url=COVERS + fields["cover"],
        start_date=today - timedelta(days=7),
        end_date=today + timedelta(days=fields["days"]),
        # A personal number stays a legacy option (shown with a warning); the rest become accounts.
        payment_options=[option for option in fields["payment_options"] if option["method"] == "mpesa"],
        # Demo data may feature its own campaigns among the success stories (never invented ones).
        may_be_featured=True,
        # No invented totals: pledged, raised and donors come only from real pledges and payments
        # (pledges/demo.py makes some through the services).
    )
    accounts = [_account(option) for option in fields["payment_options"] if option["method"] != "mpesa"]
    _accounts_link(campaign, accounts)
    return campaign


def _accounts_link(campaign: Campaign, entries: list[dict[str, Any]]) -> None:
    """The campaign's accounts, made directly: demo data is the operator's seed, not a team's request
    under the two-person rule (the second organization has a treasurer). The same details are one account."""
    for position, entry in enumerate(entries):
        kind = entry["kind"]
        details = account_details_clean(kind=kind, details=entry)
        account = collection_account_matching(
            organization_id=campaign.organization_id, kind=kind, details=details
        ) or CollectionAccount.objects.create(
            organization=campaign.organization,
            kind=kind,
            is_default=not CollectionAccount.objects.filter(organization=campaign.organization).exists(),
            **details,
        )
        CampaignCollectionAccount.objects.create(campaign=campaign, account=account, position=position)


def _account(option: dict[str, Any]) -> dict[str, Any]:
    """A demo payment option as the wizard's new account (the same details are one account)."""
    kind, fields = LEGACY_OPTION_ACCOUNTS[option["method"]]
    return {"kind": kind, **{field: option["details"][key] for field, key in fields.items()}}


def demo_campaigns_load() -> list[Campaign]:
    """Create the demo campaigns that are missing; needs the demo accounts (accounts.demo)."""
    organizers = {user.email: user for user in User.objects.filter(email__in=[ORGANIZER, MEMBER, ADMIN])}
    campaigns = [_campaign(fields, status=CampaignStatus.ACTIVE, organizers=organizers) for fields in DEMO_CAMPAIGNS]
    campaigns.append(_campaign(PENDING_CAMPAIGN, status=CampaignStatus.PENDING, organizers=organizers))
    for email, indexes in DEMO_LIKES.items():
        for index in indexes:
            CampaignLike.objects.get_or_create(campaign=campaigns[index], user=organizers[email])
    return campaigns
