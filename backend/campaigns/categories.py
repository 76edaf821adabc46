"""Campaign categories and the three lists of spec section 9, defined only here.

``Category`` is the union of every list; each screen offers its own subset:

- ``EXPLORE_CATEGORIES``: the spec's filter on /explore, led by 'All' (value ``""``: no filter);
  Explore adds the other categories its campaigns have (``selectors.explore_categories``);
- ``EDIT_FORM_CATEGORIES``: the admin's Edit Campaign dialog;
- ``WIZARD_CATEGORIES``: the campaign wizard (the source lists Justice twice; it is offered once).

The React app reads the lists from ``GET /api/campaign-categories``.
"""

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Category(models.TextChoices):
    EDUCATION = "education", _("Education")
    CHURCH = "church", _("Church")
    FAITH = "faith", _("Faith")
    JUSTICE = "justice", _("Justice")
    EMERGENCIES = "emergencies", _("Emergencies")
    ENVIRONMENT = "environment", _("Environment")
    EVENTS = "events", _("Events")
    FAMILY = "family", _("Family")
    FUNERALS_MEMORIALS = "funerals_memorials", _("Funerals & Memorials")
    HEALTH = "health", _("Health")
    BUSINESS = "business", _("Business")
    COMMUNITY = "community", _("Community")
    MISSIONARY = "missionary", _("Missionary")
    WEDDING = "wedding", _("Wedding")
    VOLUNTEER = "volunteer", _("Volunteer")
    CREATIVE = "creative", _("Creative")
    OTHER = "other", _("Other")
    MEDICAL = "medical", _("Medical")
    EMERGENCY = "emergency", _("Emergency")
    ANIMALS = "animals", _("Animals")
    SPORTS = "sports", _("Sports")


Choice = tuple[str, str | Promise]


def _choices(*categories: Category) -> list[Choice]:
    return [(category.value, category.label) for category in categories]


# The explore filter's first entry: the empty value means "every category".
ALL = ""
EXPLORE_CATEGORIES: list[Choice] = [
    (ALL, _("All")),
    *_choices(
        Category.MEDICAL,
        Category.EDUCATION,
        Category.EMERGENCY,
        Category.ANIMALS,
        Category.COMMUNITY,
        Category.SPORTS,
    ),
]
EDIT_FORM_CATEGORIES: list[Choice] = _choices(
    Category.EDUCATION,
    Category.MEDICAL,
    Category.EMERGENCY,
    Category.ANIMALS,
    Category.COMMUNITY,
    Category.SPORTS,
    Category.FAITH,
    Category.BUSINESS,
    Category.OTHER,
)
WIZARD_CATEGORIES: list[Choice] = _choices(
    Category.EDUCATION,
    Category.CHURCH,
    Category.FAITH,
    Category.JUSTICE,
    Category.EMERGENCIES,
    Category.ENVIRONMENT,
    Category.EVENTS,
    Category.FAMILY,
    Category.FUNERALS_MEMORIALS,
    Category.HEALTH,
    Category.BUSINESS,
    Category.COMMUNITY,
    Category.MISSIONARY,
    Category.WEDDING,
    Category.VOLUNTEER,
    Category.CREATIVE,
    Category.OTHER,
)
