"""What the events API reads and answers. Money is whole KES."""

from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from collection_accounts.schemas import PaymentInstructionOut
from events.models import Event, EventState
from events.selectors import HiddenLiveEntry, LiveEntry, LiveScreen


class EventIn(Schema):
    title: str = Field(max_length=120)
    starts_at: datetime
    ends_at: datetime


class EventOut(Schema):
    id: int
    campaign_id: int
    title: str
    starts_at: datetime
    ends_at: datetime
    opened_at: datetime | None
    closed_at: datetime | None
    state: EventState = Field(description="scheduled until opened, open until closed, then closed.")

    @staticmethod
    def resolve_state(event: Event) -> EventState:
        return event.state


LiveEntryKind = Literal["pledge", "gift"]


class HiddenEntryIn(Schema):
    kind: LiveEntryKind
    id: int = Field(ge=1, description="The entry's id as the live feed gives it.")


class LiveEntryOut(Schema):
    """A pledge or gift on the big screen: a visitor's view of it (an anonymous giver is 'Anonymous';
    never an e-mail or phone)."""

    key: str = Field(description="Unique over the feed ('pledge-12', 'gift-7'): show each key once.")
    kind: LiveEntryKind
    id: int
    name: str
    amount: int
    at: datetime = Field(description="When it was pledged, or when the gift was paid.")

    @classmethod
    def from_entry(cls, entry: LiveEntry) -> "LiveEntryOut":
        return cls.model_validate(entry, from_attributes=True)


class HiddenLiveEntryOut(LiveEntryOut):
    """An entry its campaign's team hid from the big screen, as the screen showed it."""

    hidden_at: datetime

    @classmethod
    def from_hidden(cls, hidden: HiddenLiveEntry) -> "HiddenLiveEntryOut":
        return cls(**LiveEntryOut.from_entry(hidden.entry).model_dump(), hidden_at=hidden.hidden_at)


class LiveEventOut(Schema):
    id: int
    title: str
    opened_at: datetime
    pledged_total: int = Field(
        description="Pledged tonight: live pledges made since it opened or typed at its desk, under the campaign's "
        "public-figure rule, hidden entries left out (events.selectors.NightShown), whole KES."
    )
    given_total: int = Field(
        description="Given tonight: gifts paid since it opened or recorded at its desk (cash, M-Pesa, card; at the "
        "desk or online), hidden entries left out, whole KES."
    )


class LiveScreenOut(Schema):
    """The big screen's data: the same for every viewer, nothing private."""

    campaign_id: int
    title: str
    organization_name: str = Field(description="The organization the money goes to; '' for a personal one.")
    goal: int
    pledged_total: int = Field(description="The public pledged figure (as on the campaign page), whole KES.")
    paid_total: int = Field(description="Paid so far towards the pledges, whole KES.")
    raised_total: int = Field(description="Confirmed payments and donations, whole KES.")
    progress_percent: int = Field(description="pledged_total over goal, capped at 100.")
    progress_percent_uncapped: int
    has_ended: bool
    share_url: str = Field(description="The campaign page, for the QR code and to pledge online.")
    payment_instructions: list[PaymentInstructionOut]
    event: LiveEventOut | None = Field(description="The event running now; null between events.")
    entries: list[LiveEntryOut] = Field(
        description="The newest pledges and gifts, newest first: since the event opened, else the campaign's latest. "
        "Entries its team hid are left out."
    )

    @classmethod
    def from_screen(cls, screen: LiveScreen) -> "LiveScreenOut":
        campaign = screen.campaign
        event = screen.event
        return cls(
            campaign_id=campaign.pk,
            title=campaign.title,
            organization_name=campaign.organization.payee_name,
            goal=campaign.goal,
            pledged_total=campaign.public_pledged_total,
            paid_total=screen.paid_total,
            raised_total=campaign.raised_total,
            progress_percent=campaign.progress_percent,
            progress_percent_uncapped=campaign.progress_percent_uncapped,
            has_ended=campaign.has_ended,
            share_url=campaign.share_url,
            payment_instructions=[PaymentInstructionOut.from_instruction(i) for i in screen.instructions],
            event=None
            if event is None or event.opened_at is None or screen.night is None
            else LiveEventOut(
                id=event.pk,
                title=event.title,
                opened_at=event.opened_at,
                pledged_total=screen.night.pledged,
                given_total=screen.night.given,
            ),
            entries=[LiveEntryOut.from_entry(entry) for entry in screen.entries],
        )
