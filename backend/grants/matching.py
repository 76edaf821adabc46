"""How well a grant fits an organization: a score from 0 to 100 and the reasons behind it.

Plain rules rather than a model, so that every point comes with a reason the user can read:

- focus areas (up to 50): each area the profile names (comma-separated) is mapped through a small
  vocabulary to topics; the grant's category counts most, its title and description less;
- location (up to 20): the grant's place against the profile's, knowing which county lies in
  which country and which country in which region;
- funding range (up to 20): the grant's amount against the range the profile gives;
- organization type (up to 10): whether the grant's text invites organizations of that type.

The ordering is pinned by the labelled profile/grant pairs in grants/tests/test_matching.py.
"""

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from grants.models import Grant, GrantCategory, OrganizationProfile

FOCUS_POINTS = 50
LOCATION_POINTS = 20
FUNDING_POINTS = 20
TYPE_POINTS = 10
# The dashboard counts grants at or above this score as good matches.
GOOD_MATCH_SCORE = 60

# Approximate, and only used to compare a range given in shillings with grants in dollars.
KES_PER_USD = 129


def _stem(word: str) -> str:
    """Enough stemming for plurals: 'ministries' -> 'ministry', 'schools' -> 'school'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# Words that point to each grant category; stemmed below like the text they are compared with.
TOPIC_WORDS: dict[str, set[str]] = {
    GrantCategory.EDUCATION: {
        "education", "school", "literacy", "learning", "scholarship", "teacher", "teaching", "student",
        "classroom", "reading", "book", "educational", "tuition", "bursary", "pupil",
    },
    GrantCategory.HEALTH: {
        "health", "healthcare", "medical", "clinic", "hospital", "maternal", "hiv", "malaria", "nutrition",
        "disease", "nurse", "wellbeing", "mental", "immunisation", "immunization",
    },
    GrantCategory.WATER_SANITATION: {
        "water", "sanitation", "wash", "borehole", "hygiene", "toilet", "latrine", "rainwater",
    },
    GrantCategory.YOUTH: {
        "youth", "young", "child", "children", "kid", "orphan", "teen", "teenager", "adolescent", "boy",
    },
    GrantCategory.WOMEN: {"women", "woman", "girl", "gender", "mother", "widow", "female"},
    GrantCategory.AGRICULTURE: {
        "agriculture", "agricultural", "farming", "farmer", "farm", "food", "livestock", "crop", "irrigation",
        "agribusiness", "harvest", "smallholder", "seed",
    },
    GrantCategory.FAITH_BASED: {
        "faith", "church", "ministry", "christian", "religious", "gospel", "congregation", "pastor",
        "evangelism", "discipleship", "parish", "diocese", "mosque", "interfaith", "spiritual",
    },
    GrantCategory.RELIEF: {
        "relief", "emergency", "disaster", "humanitarian", "refugee", "drought", "famine", "crisis",
        "displaced", "flood",
    },
    GrantCategory.COMMUNITY_DEVELOPMENT: {"community", "infrastructure", "village", "grassroot", "neighbourhood"},
    GrantCategory.ENVIRONMENT: {
        "environment", "environmental", "climate", "conservation", "tree", "reforestation", "energy", "solar",
        "forest", "recycling",
    },
    GrantCategory.LIVELIHOODS: {
        "livelihood", "enterprise", "entrepreneurship", "entrepreneur", "business", "microfinance", "income",
        "job", "employment", "vocational", "saving", "economic",
    },
}  # fmt: skip
TOPIC_WORDS = {topic: {_stem(word) for word in words} for topic, words in TOPIC_WORDS.items()}

# Phrases in a grant's text that invite an organization of each type, and the words that name the type.
ORGANIZATION_TYPES: dict[str, set[str]] = {
    "faith": {
        "church", "ministry", "faith", "faith based", "christian", "religious", "congregation", "parish",
        "diocese", "mosque", "fellowship",
    },
    "nonprofit": {
        "ngo", "nonprofit", "non profit", "non governmental", "charity", "community based", "cbo",
        "civil society",
    },
    "school": {"school", "college", "university", "academy"},
    "cooperative": {"cooperative", "co operative", "sacco", "self help group", "women group"},
}  # fmt: skip

# Each place and the larger place it lies in.
PLACE_PARENT: dict[str, str] = {
    **dict.fromkeys(
        [
            "nairobi", "mombasa", "kisumu", "nakuru", "eldoret", "thika", "machakos", "kiambu", "kakamega",
            "kisii", "nyeri", "meru", "kitui", "kilifi", "garissa", "turkana", "marsabit", "kajiado", "narok",
            "bungoma", "embu", "malindi", "lamu", "naivasha", "kericho", "homa bay", "migori", "siaya", "busia",
            "makueni", "murang a", "nyandarua", "laikipia", "baringo", "wajir", "mandera", "isiolo", "kwale",
            "taita taveta", "vihiga", "nandi", "bomet", "nyamira", "tharaka nithi", "kirinyaga", "samburu",
            "trans nzoia", "uasin gishu", "elgeyo marakwet", "west pokot", "tana river",
        ],
        "kenya",
    ),
    "kampala": "uganda", "gulu": "uganda", "dar es salaam": "tanzania", "arusha": "tanzania",
    "dodoma": "tanzania", "kigali": "rwanda", "addis ababa": "ethiopia", "juba": "south sudan",
    **dict.fromkeys(
        ["kenya", "uganda", "tanzania", "rwanda", "burundi", "south sudan", "ethiopia", "somalia", "eritrea", "djibouti"],
        "east africa",
    ),
    **dict.fromkeys(
        ["nigeria", "ghana", "senegal", "sierra leone", "liberia", "cote d ivoire", "mali", "niger"], "west africa"
    ),
    **dict.fromkeys(
        ["south africa", "zambia", "malawi", "zimbabwe", "mozambique", "botswana", "namibia", "lesotho", "eswatini"],
        "southern africa",
    ),
    **dict.fromkeys(["drc", "congo", "cameroon", "chad", "gabon"], "central africa"),
    **dict.fromkeys(["egypt", "morocco", "tunisia", "algeria", "libya", "sudan"], "north africa"),
    **dict.fromkeys(["east africa", "west africa", "southern africa", "central africa"], "sub saharan africa"),
    "sub saharan africa": "africa",
    "north africa": "africa",
}  # fmt: skip
PLACE_ALIASES = {
    "eastern africa": "east africa",
    "east african": "east africa",
    "horn of africa": "east africa",
    "subsaharan africa": "sub saharan africa",
    "democratic republic of the congo": "drc",
}
REGIONS = {
    "east africa",
    "west africa",
    "southern africa",
    "central africa",
    "north africa",
    "sub saharan africa",
    "africa",
}
WORLDWIDE = {"global", "worldwide", "international", "anywhere"}

AREA_SEPARATORS = re.compile(r"[,;/\n&+]|\band\b", re.IGNORECASE)
WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = {
    _stem(word) for word in ("the", "for", "with", "our", "their", "from", "into", "that", "this", "other", "programs")
}
UP_TO = re.compile(r"\b(?:up to|upto|under|below|less than|max(?:imum)?|at most)\b")
AT_LEAST = re.compile(r"\b(?:over|above|more than|at least|min(?:imum)?|from)\b|\+")
AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(k|m|thousand|million)?\b")
SHILLINGS = re.compile(r"\b(?:ksh|kes|shillings?)\b")


def _words(text: str) -> list[str]:
    return [_stem(word) for word in WORD.findall(text.lower())]


def _padded(text: str) -> str:
    """The text as ' word word ', so that ' phrase ' finds whole words and phrases only."""
    return f" {' '.join(_words(text))} "


def _contains(padded: str, phrase: str) -> bool:
    return _padded(phrase) in padded


def _places(text: str) -> set[str]:
    """The most specific known places named in the text ('Nairobi, Kenya' -> {'nairobi'})."""
    padded = _padded(text)
    for alias, place in PLACE_ALIASES.items():
        padded = padded.replace(_padded(alias), f" {place} ")
    found = {place for place in {*PLACE_PARENT, "africa"} if _contains(padded, place)}
    return found - {ancestor for place in found for ancestor in _ancestors(place) if ancestor != place}


def _ancestors(place: str) -> list[str]:
    """The place and every larger place around it, smallest first."""
    chain = [place]
    while chain[-1] in PLACE_PARENT:
        chain.append(PLACE_PARENT[chain[-1]])
    return chain


def _country(place: str) -> str | None:
    return next((p for p in _ancestors(place) if p not in REGIONS and PLACE_PARENT.get(p) in REGIONS), None)


def parse_funding_range(text: str) -> tuple[float, float] | None:
    """The range in US dollars a profile asks for: '$25,001 - $50,000', 'up to 25k', '100,000+',
    'KES 1M - 3M'. A lone amount is read as an upper limit. None when no amount is given."""
    lowered = text.lower()
    amounts = []
    for digits, unit in AMOUNT.findall(lowered):
        value = float(digits.replace(",", ""))
        value *= {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get(unit, 1)
        amounts.append(value)
    if not amounts:
        return None
    if SHILLINGS.search(lowered):
        amounts = [amount / KES_PER_USD for amount in amounts]
    if len(amounts) >= 2:
        return min(amounts), max(amounts)
    if AT_LEAST.search(lowered) and not UP_TO.search(lowered):
        return amounts[0], math.inf
    return 0.0, amounts[0]


def _topics(words: list[str]) -> set[str]:
    return {topic for topic, vocabulary in TOPIC_WORDS.items() if vocabulary.intersection(words)}


def _display(area: str) -> str:
    # 'Clean Water' reads better mid-sentence as 'clean water'; 'HIV' stays as typed.
    return area if area.isupper() else area.lower()


@dataclass
class _FocusArea:
    text: str
    topics: set[str]
    keywords: set[str]


@dataclass
class Matcher:
    """A profile read once, then matched against many grants."""

    profile: OrganizationProfile
    areas: list[_FocusArea] = field(init=False)
    mission_topics: set[str] = field(init=False)
    places: set[str] = field(init=False)
    funding: tuple[float, float] | None = field(init=False)
    types: set[str] = field(init=False)

    def __post_init__(self) -> None:
        profile = self.profile
        self.areas = []
        for part in AREA_SEPARATORS.split(profile.focus_areas):
            if words := _words(part):
                keywords = {word for word in words if len(word) >= 4 and word not in STOPWORDS}
                self.areas.append(_FocusArea(" ".join(part.split()), _topics(words), keywords))
        self.mission_topics = _topics(_words(profile.mission))
        self.places = _places(profile.location)
        self.funding = parse_funding_range(profile.funding_range)
        organization_type = _padded(profile.organization_type)
        self.types = {
            kind
            for kind, phrases in ORGANIZATION_TYPES.items()
            if any(_contains(organization_type, p) for p in phrases)
        }

    def match(self, grant: Grant) -> tuple[int, list[str]]:
        reasons: list[str] = []
        score = 0
        for points, reason in (
            self._focus(grant),
            self._location(grant),
            self._funding(grant),
            self._organization_type(grant),
        ):
            score += points
            reasons.extend(reason)
        return min(score, 100), reasons

    def _focus(self, grant: Grant) -> tuple[int, list[str]]:
        text_words = _words(f"{grant.title} {grant.description}")
        title_words = set(_words(grant.title))
        counts = Counter(text_words)

        def mentioned(vocabulary: set[str]) -> bool:
            # Once in passing ('open to community-based organisations') is not a focus.
            return bool(vocabulary & title_words) or sum(counts[word] for word in vocabulary) >= 2

        matches: list[tuple[int, str]] = []
        for area in self.areas:
            if grant.category in area.topics:
                matches.append((FOCUS_POINTS, area.text))
            elif any(mentioned(TOPIC_WORDS[topic]) for topic in area.topics):
                matches.append((30, area.text))
            elif not area.topics and area.keywords & set(text_words):
                matches.append((20, area.text))
        if not matches:
            if grant.category in self.mission_topics:
                return 15, [_("Related to your mission")]
            return 0, []
        matches.sort(key=lambda match: -match[0])
        points = min(FOCUS_POINTS, matches[0][0] + 10 * (len(matches) - 1))
        return points, [_("Matches your focus on %(area)s") % {"area": _display(text)} for _points, text in matches[:3]]

    def _location(self, grant: Grant) -> tuple[int, list[str]]:
        grant_places = _places(grant.location)
        around_profile = {ancestor for place in self.places for ancestor in _ancestors(place)}
        best = (0, "")
        for place in grant_places:
            if place in around_profile and place not in REGIONS:
                best = max(best, (LOCATION_POINTS, _("In your location")))
            elif place in around_profile:
                best = max(best, (15, _("Open to organizations in your region")))
            elif _country(place) in around_profile:
                best = max(best, (10, _("In your country")))
        if not best[0] and not grant_places and not self.places:
            # Places we do not know: compare the words themselves.
            grant_words = set(_words(grant.location))
            if grant_words and grant_words <= set(_words(self.profile.location)):
                best = (LOCATION_POINTS, _("In your location"))
        if not best[0] and WORLDWIDE.intersection(_words(grant.location)):
            best = (10, _("Open to organizations worldwide"))
        return best[0], [best[1]] if best[0] else []

    def _funding(self, grant: Grant) -> tuple[int, list[str]]:
        if self.funding is None:
            return 0, []
        low, high = self.funding
        if low <= grant.amount_usd <= high:
            return FUNDING_POINTS, [_("Within your funding range")]
        if low / 2 <= grant.amount_usd <= high * 2:
            return 8, [_("Close to your funding range")]
        return 0, []

    def _organization_type(self, grant: Grant) -> tuple[int, list[str]]:
        text = _padded(f"{grant.title} {grant.description}")
        if any(_contains(text, phrase) for kind in self.types for phrase in ORGANIZATION_TYPES[kind]):
            return TYPE_POINTS, [_("Open to organizations like yours")]
        return 0, []


def grant_match(profile: OrganizationProfile, grant: Grant) -> tuple[int, list[str]]:
    """The grant's fit to the profile, 0 to 100, with the reasons for the points."""
    return Matcher(profile).match(grant)
