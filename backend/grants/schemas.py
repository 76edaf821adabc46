from datetime import date, datetime

from ninja import Field, Schema
from pydantic import field_validator

from grants.models import AmountBracket, GrantCategory


class OrganizationProfileIn(Schema):
    organization_name: str = ""
    mission: str = ""
    focus_areas: str = ""
    organization_type: str = ""
    location: str = ""
    funding_range: str = ""


class OrganizationProfileOut(Schema):
    organization_name: str
    mission: str
    focus_areas: str
    organization_type: str
    location: str
    funding_range: str
    updated_at: datetime


class GrantSearchQuery(Schema):
    """Filters of GET /api/grants; an empty value means no filter."""

    q: str = Field(
        "", max_length=100, description="Words that must all appear in the title, organization or description."
    )
    category: GrantCategory | None = None
    bracket: AmountBracket | None = Field(None, description="Amount in US dollars; both ends are included.")
    location: str = Field("", max_length=200, description="One of the search answer's locations.")

    @field_validator("category", "bracket", mode="before")
    @classmethod
    def _blank_is_no_filter(cls, value: object) -> object:
        return None if value in ("", "all") else value


class ChoiceOut(Schema):
    value: str
    label: str


class GrantOut(Schema):
    id: int
    title: str
    organization: str
    category: str
    category_label: str
    amount_usd: int
    location: str
    deadline: date
    description: str
    website: str
    apply_url: str = Field(
        description="Where 'Apply Now' leads: the application page, else the website; for a sample, this site's "
        "/grantfunding/sample-grant."
    )
    is_sample: bool = Field(description="An illustration seeded with the site, not a real grant.")
    regions: str
    focus_areas: str
    amount_min_usd: int | None
    amount_max_usd: int | None
    match_score: int = Field(..., ge=0, le=100)
    match_reasons: list[str]
    past_deadline: bool
    application_state: str | None = Field(..., description="saved, applied, awarded or declined; null if untracked.")
    application_note: str


class GrantSearchOut(Schema):
    """Matching grants, best match first and those past their deadline last, with the filter choices."""

    count: int
    results: list[GrantOut]
    categories: list[ChoiceOut]
    brackets: list[ChoiceOut]
    locations: list[str]


class GrantApplicationIn(Schema):
    state: str = ""
    note: str = ""


class GrantApplicationOut(Schema):
    grant_id: int
    state: str
    note: str
    updated_at: datetime
