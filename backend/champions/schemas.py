"""What the champions API reads and answers. Money is whole KES."""

from datetime import datetime
from typing import Literal

from django.conf import settings
from ninja import Field, Schema

from campaigns.selectors import campaign_payment_instructions
from champions.models import APPEAL_MAX_LENGTH, Champion, HarambeeCard
from champions.selectors import Board, ChampionFigures, CircleGift, Leaderboards, Roster
from collection_accounts.schemas import PaymentInstructionOut
from common.money import AMOUNT_MAX


class ChampionIn(Schema):
    """Become a champion (yourself), or, as the campaign's owners and treasurers, name someone else."""

    goal: int = Field(ge=1, le=AMOUNT_MAX, description="The champion's own goal, whole KES.")
    appeal: str = Field("", max_length=APPEAL_MAX_LENGTH, description="A short personal appeal, shown on their page.")
    name: str = Field("", max_length=500, description="Someone else's name; yourself: your account's name if empty.")
    phone: str = Field("", max_length=50, description="Someone else's Kenyan phone (required for them).")
    team_id: int | None = Field(None, description="Join this team of the campaign.")
    on_leaderboard: bool = Field(True, description="False: their gifts count, but they are not named on the boards.")
    for_someone_else: bool = Field(False, description="Name someone else (owners, treasurers, admins).")


class ChampionPatchIn(Schema):
    appeal: str | None = Field(None, max_length=APPEAL_MAX_LENGTH)
    goal: int | None = Field(None, ge=1, le=AMOUNT_MAX)
    on_leaderboard: bool | None = None
    team_id: int | None = Field(None, description="Join this team of the campaign.")
    leave_team: bool = Field(False, description="Leave their team.")


class TeamIn(Schema):
    name: str = Field(max_length=200)
    goal: int = Field(0, ge=0, le=AMOUNT_MAX, description="Whole KES; 0: none.")


class TeamOut(Schema):
    id: int
    name: str
    goal: int


class ChampionOut(Schema):
    """A champion as they and the team see them (no phone)."""

    code: str = Field(description="Their M-Pesa account number (6 characters) and the end of their page's address.")
    name: str
    appeal: str
    goal: int
    team: TeamOut | None
    on_leaderboard: bool
    card_number: int = Field(description="The number of their harambee card.")
    page_url: str

    @classmethod
    def of(cls, champion: Champion) -> "ChampionOut":
        return cls(
            code=champion.code,
            name=champion.name,
            appeal=champion.appeal,
            goal=champion.goal,
            team=TeamOut(id=champion.team.pk, name=champion.team.name, goal=champion.team.goal)
            if champion.team
            else None,
            on_leaderboard=champion.on_leaderboard,
            card_number=champion.card.number,
            page_url=f"{settings.SITE_URL}{champion.page_path}",
        )


class ChampionPageOut(ChampionOut):
    """A champion's public page: who, their appeal, how far, and how to give through them."""

    campaign_id: int
    campaign_title: str
    raised: int = Field(description="What their circle gave (counted donations and payments to their pledges).")
    pledged: int = Field(description="Pledged through them, under the campaign's public-figure rule.")
    gifts: int = Field(description="How many gifts and paid pledges.")
    payment_instructions: list[PaymentInstructionOut] = Field(
        description="How to give through them: the campaign's paybill with their code as account number."
    )

    @classmethod
    def page(cls, champion: Champion, figures: ChampionFigures) -> "ChampionPageOut":
        instructions = campaign_payment_instructions(campaign=champion.campaign, reference=champion.code)
        return cls(
            **ChampionOut.of(champion).model_dump(),
            campaign_id=champion.campaign_id,
            campaign_title=champion.campaign.title,
            raised=figures.raised,
            pledged=figures.pledged,
            gifts=figures.gifts,
            payment_instructions=[
                PaymentInstructionOut.from_instruction(instruction)
                for instruction in instructions
                if instruction.method in ("paybill", "paybill_fixed_account")
            ],
        )


class StandingOut(Schema):
    code: str
    name: str
    team: str
    goal: int
    raised: int
    pledged: int


class TeamStandingOut(Schema):
    id: int
    name: str
    goal: int
    raised: int
    pledged: int
    champions: int


class BoardOut(Schema):
    champions: list[StandingOut] = Field(description="Top champions named on the board (those who opted out are not).")
    teams: list[TeamStandingOut]
    raised: int = Field(description="What all champions brought, named or not.")

    @classmethod
    def of(cls, board: Board) -> "BoardOut":
        return cls(
            champions=[StandingOut(**vars(standing)) for standing in board.champions],
            teams=[TeamStandingOut(**vars(team)) for team in board.teams],
            raised=board.raised,
        )


class LeaderboardsOut(Schema):
    overall: BoardOut
    tonight: BoardOut = Field(description="Since midnight, Nairobi time.")
    since: datetime

    @classmethod
    def of(cls, boards: Leaderboards) -> "LeaderboardsOut":
        return cls(overall=BoardOut.of(boards.overall), tonight=BoardOut.of(boards.tonight), since=boards.since)


class CircleGiftOut(Schema):
    name: str = Field(description="'' for an anonymous giver: their name is not shown, even to the champion.")
    kind: Literal["pledge", "gift"]
    amount: int
    paid: int
    owed: int
    at: datetime

    @classmethod
    def of(cls, gift: CircleGift) -> "CircleGiftOut":
        return cls(**vars(gift))


class CircleOut(Schema):
    """A champion's own view of their circle."""

    champion: ChampionOut
    raised: int
    pledged: int
    owed: int = Field(description="Still owed on the live pledges made through them.")
    gifts: list[CircleGiftOut]


class CardGiftIn(Schema):
    kind: Literal["pledge", "cash", "mpesa"]
    amount: int = Field(ge=1, le=AMOUNT_MAX)
    name: str = Field("", max_length=150)
    phone: str = Field("", max_length=50)
    mpesa_receipt: str = Field("", max_length=20)


class CardReturnIn(Schema):
    cash_total: int = Field(ge=0, le=AMOUNT_MAX, description="The cash in the card's envelope, whole KES.")
    mpesa_reported: int = Field(0, ge=0, le=AMOUNT_MAX, description="The M-Pesa total written on the card (a check).")
    gifts: list[CardGiftIn] = Field(default_factory=list, max_length=60, description="The lines written on the card.")


class CardOut(Schema):
    number: int
    champion_code: str
    returned_at: datetime | None
    mpesa_reported: int

    @classmethod
    def of(cls, card: HarambeeCard) -> "CardOut":
        return cls(
            number=card.number,
            champion_code=card.champion.code,
            returned_at=card.returned_at,
            mpesa_reported=card.mpesa_reported,
        )


class RosterChampionOut(Schema):
    code: str
    name: str
    team_id: int | None
    goal: int
    on_leaderboard: bool = Field(description="False: they asked to stay off the boards (still listed here).")
    card_number: int
    card_returned: bool = Field(description="Their harambee card was brought back to the desk.")
    raised: int
    pledged: int


class RosterOut(Schema):
    """Every champion and team of a campaign, as its team sees them."""

    champions: list[RosterChampionOut]
    teams: list[TeamStandingOut]

    @classmethod
    def of(cls, roster: Roster) -> "RosterOut":
        return cls(
            champions=[RosterChampionOut(**vars(champion)) for champion in roster.champions],
            teams=[TeamStandingOut(**vars(team)) for team in roster.teams],
        )
