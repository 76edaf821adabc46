"""Champions' writes: becoming a champion, teams, giving through a champion, returned harambee cards.

Every shilling goes through pledges' and payments' own services (the one ledger, the organization's
accounts); this app adds only the ``Attribution`` saying which champion brought it, in the same
transaction. A payment is attributed at most once because it credits at most once (one donation per
payment, one attribution per donation: docs/architecture/payment-identity.md).
"""

from collections.abc import Collection
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from campaigns.caching import campaign_changed
from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_get, campaign_permission_check
from champions import codes
from champions.models import (
    APPEAL_MAX_LENGTH,
    NAME_MAX_LENGTH,
    TEAM_NAME_MAX_LENGTH,
    Attribution,
    Champion,
    HarambeeCard,
    Team,
)
from champions.selectors import RecountedTotals, champions_totals_recounted, tonight_start
from common.errors import FieldValidationError, NotFoundError, ServiceError
from common.money import AMOUNT_MAX
from organizations.roles import Permission
from payments.models import Payment
from payments.services import payment_take_as_donation
from pledges import instalments
from pledges.instalments import PlanByCount
from pledges.models import DELETED_USER_NAME, Donation, Pledge, PledgeChannel
from pledges.services import (
    donation_attach_payment,
    donation_create_by_phone,
    donation_record_at_desk,
    pledge_create,
    pledge_create_at_desk,
    pledge_create_by_phone,
)

CODE_ATTEMPTS = 5
# The running totals a team keeps too (a champion also counts their gifts).
TOTALS = [field for field in RecountedTotals.__dataclass_fields__ if field != "gifts"]


def champions_totals_recount(*, champion_ids: Collection[int]) -> None:
    """Bring these champions' running totals, and their teams', to what the ledger credited through them,
    in the caller's transaction (the one that credits, reverses or changes it: ``champions.receivers``).
    Their rows are locked first, so two crediting transactions recount one after the other, the second
    reading what the first committed. A fixed number of queries, however many champions."""
    if not champion_ids:
        return
    with transaction.atomic():
        locked = list(
            Champion.objects.select_for_update().filter(pk__in=champion_ids).order_by("pk").values_list("pk", "team_id")
        )
        today = timezone.localdate()
        recounted = champions_totals_recounted(champion_ids=[pk for pk, _team in locked], since=tonight_start())
        champions = [
            Champion(pk=pk, tonight=today, **vars(recounted.get(pk, RecountedTotals()))) for pk, _team in locked
        ]
        Champion.objects.bulk_update(champions, [*TOTALS, "gifts", "tonight"])
        teams_totals_recount(team_ids={team_id for _pk, team_id in locked if team_id is not None})


def teams_totals_recount(*, team_ids: Collection[int]) -> None:
    """Bring these teams' running totals to the sums of their champions' (rows locked, as above)."""
    if not team_ids:
        return
    today = timezone.localdate()
    locked = list(Team.objects.select_for_update().filter(pk__in=team_ids).order_by("pk").values_list("pk", flat=True))
    tonight = Q(tonight=today)
    sums = {
        row["team_id"]: row
        for row in Champion.objects.filter(team_id__in=locked)
        .values("team_id")
        .annotate(
            **{
                field: Coalesce(Sum(field, filter=tonight if field.startswith("tonight_") else None), 0)
                for field in TOTALS
            }
        )
    }
    teams = [Team(pk=pk, tonight=today, **{field: sums.get(pk, {}).get(field, 0) for field in TOTALS}) for pk in locked]
    Team.objects.bulk_update(teams, [*TOTALS, "tonight"])


def _invalid(field: str, message: str) -> FieldValidationError:
    return FieldValidationError(message, field_errors={field: message})


def _goal_check(goal: int, *, field: str = "goal") -> None:
    if not 1 <= goal <= AMOUNT_MAX:
        raise _invalid(field, _("Please enter a goal in whole shillings."))


def _ensure_open(campaign: Campaign) -> None:
    if campaign.status != CampaignStatus.ACTIVE or campaign.end_date < timezone.localdate():
        raise ServiceError(_("This campaign is not taking new champions."), code="campaign_not_open")


def _team_of(*, campaign: Campaign, team_id: int | None) -> Team | None:
    if team_id is None:
        return None
    team = Team.objects.filter(pk=team_id, campaign=campaign).first()
    if team is None:
        raise _invalid("team_id", _("This team is not one of the campaign's."))
    return team


def champion_get(*, campaign_id: int, code: str, user: User | None) -> Champion:
    """The champion of a campaign the viewer may see, by code (as typed: any case, separators); else 404."""
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    champion = (
        Champion.objects.select_related("team", "card")
        .filter(campaign=campaign, code=codes.normalize(code)[:12])
        .first()
    )
    if champion is None:
        raise NotFoundError(_("Champion not found."), code="champion_not_found")
    champion.campaign = campaign
    return champion


def _card_issue(champion: Champion) -> HarambeeCard:
    """The champion's numbered card: the campaign's next number (the campaign row is locked)."""
    Campaign.objects.select_for_update().filter(pk=champion.campaign_id).first()
    last = HarambeeCard.objects.filter(campaign_id=champion.campaign_id).aggregate(last=Max("number"))["last"]
    return HarambeeCard.objects.create(campaign_id=champion.campaign_id, champion=champion, number=(last or 0) + 1)


def champion_create(
    *,
    campaign_id: int,
    user: User,
    goal: int,
    appeal: str = "",
    name: str = "",
    phone: str = "",
    team_id: int | None = None,
    on_leaderboard: bool = True,
    for_someone_else: bool = False,
) -> Champion:
    """Make a champion of an active campaign, with their code, page and numbered card.

    Any signed-in person becomes a champion themselves (once per campaign: 'You are already a
    champion'); the campaign's owners and treasurers (or an admin) also name someone else
    (``for_someone_else``: a name and a Kenyan phone), who may take it over by signing in later.
    """
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    if for_someone_else:
        campaign_permission_check(
            campaign=campaign,
            user=user,
            permission=Permission.MANAGE_PLEDGES,
            denied=_("Only the campaign's owners and treasurers, or an admin, can name champions."),
        )
    _ensure_open(campaign)
    appeal, name, phone = appeal.strip(), validators.normalize_name(name or ""), phone.strip()
    if not for_someone_else:
        name = name or user.full_name or user.display_name
        phone = phone or user.phone
    errors: dict[str, str] = {}
    if not name:
        errors["name"] = _("Please enter the champion's name.")
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = _("Please keep the name under 150 characters.")
    if for_someone_else and not phone:
        errors["phone"] = _("Please enter the champion's phone number.")
    elif phone and (message := validators.check_kenyan_phone(phone)):
        errors["phone"] = message
    if len(appeal) > APPEAL_MAX_LENGTH:
        errors["appeal"] = _("Please keep the appeal under 500 characters.")
    if not 1 <= goal <= AMOUNT_MAX:
        errors["goal"] = _("Please enter a goal in whole shillings.")
    if errors:
        raise FieldValidationError(next(iter(errors.values())), field_errors=errors)
    team = _team_of(campaign=campaign, team_id=team_id)
    fields = {
        "campaign": campaign,
        "team": team,
        "user": None if for_someone_else else user,
        "name": name,
        "phone": validators.normalize_kenyan_phone(phone) if phone else "",
        "appeal": appeal,
        "goal": goal,
        "on_leaderboard": on_leaderboard,
        "created_by": user,
    }
    if not for_someone_else and Champion.objects.filter(campaign=campaign, user=user).exists():
        raise ServiceError(_("You are already a champion of this campaign."), code="already_champion")
    for _attempt in range(CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                champion = Champion.objects.create(code=codes.new_code(), **fields)
                _card_issue(champion)
                return champion
        except IntegrityError:
            if not for_someone_else and Champion.objects.filter(campaign=campaign, user=user).exists():
                raise ServiceError(_("You are already a champion of this campaign."), code="already_champion") from None
    raise ServiceError(_("Please try again."), code="code_collision")  # pragma: no cover - 29 million codes


def _champion_managed(*, campaign_id: int, code: str, user: User) -> Champion:
    """The champion if ``user`` is that champion or manages the campaign's pledges; else 403."""
    champion = champion_get(campaign_id=campaign_id, code=code, user=user)
    if champion.user_id != user.pk:
        campaign_permission_check(
            campaign=champion.campaign,
            user=user,
            permission=Permission.MANAGE_PLEDGES,
            denied=_("Only the champion, or the campaign's owners and treasurers, can change this."),
        )
    return champion


def champion_update(
    *,
    campaign_id: int,
    code: str,
    user: User,
    appeal: str | None = None,
    goal: int | None = None,
    on_leaderboard: bool | None = None,
    team_id: int | None = None,
    leave_team: bool = False,
) -> Champion:
    """The champion (or the campaign's owners and treasurers) changes the appeal, the goal, whether
    they are on the leaderboards, and joins or leaves a team."""
    with transaction.atomic():
        champion = _champion_managed(campaign_id=campaign_id, code=code, user=user)
        team_before = champion.team_id
        if appeal is not None:
            if len(appeal.strip()) > APPEAL_MAX_LENGTH:
                raise _invalid("appeal", _("Please keep the appeal under 500 characters."))
            champion.appeal = appeal.strip()
        if goal is not None:
            _goal_check(goal)
            champion.goal = goal
        if on_leaderboard is not None:
            champion.on_leaderboard = on_leaderboard
        if leave_team:
            champion.team = None
        elif team_id is not None:
            champion.team = _team_of(campaign=champion.campaign, team_id=team_id)
        # Not the running totals: a credit may be recounting them meanwhile.
        champion.save(update_fields=["appeal", "goal", "on_leaderboard", "team"])
        if champion.team_id != team_before:
            teams_totals_recount(team_ids={team for team in (team_before, champion.team_id) if team is not None})
        return champion


def team_create(*, campaign_id: int, user: User, name: str, goal: int = 0) -> Team:
    """A team of the campaign (the choir, a fellowship, a jumuiya), by its owners and treasurers."""
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    campaign_permission_check(
        campaign=campaign,
        user=user,
        permission=Permission.MANAGE_PLEDGES,
        denied=_("Only the campaign's owners and treasurers, or an admin, can make teams."),
    )
    name = " ".join(name.split())
    if not name:
        raise _invalid("name", _("Please enter the team's name."))
    if len(name) > TEAM_NAME_MAX_LENGTH:
        raise _invalid("name", _("Please keep the team's name under 80 characters."))
    if not 0 <= goal <= AMOUNT_MAX:
        raise _invalid("goal", _("Please enter a goal in whole shillings."))
    try:
        with transaction.atomic():
            return Team.objects.create(campaign=campaign, name=name, goal=goal, created_by=user)
    except IntegrityError:
        raise _invalid("name", _("The campaign already has a team of that name.")) from None


def champion_pledge_create(
    *,
    campaign_id: int,
    code: str,
    amount: float | None,
    name: str | None,
    email: str | None,
    phone: str | None,
    is_anonymous: bool,
    viewer: User | None,
    client_ip: str,
    challenge_solution: str = "",
    plan: instalments.PlanTerms | None = None,
) -> Pledge:
    """A pledge made on a champion's page: an ordinary pledge of the campaign (pledges' rules, limits,
    code and instalment ``plan``), attributed to the champion; what pays it counts for them too."""
    champion = champion_get(campaign_id=campaign_id, code=code, user=viewer)
    with transaction.atomic():
        pledge = pledge_create(
            campaign_id=campaign_id,
            amount=amount,
            name=name,
            email=email,
            phone=phone,
            is_anonymous=is_anonymous,
            viewer=viewer,
            client_ip=client_ip,
            challenge_solution=challenge_solution,
            plan=plan,
        )
        Attribution.objects.create(champion=champion, pledge=pledge)
    return pledge


def champion_pledge_create_by_phone(
    *,
    champion: Champion,
    amount: int,
    phone: str,
    is_anonymous: bool,
    channel: PledgeChannel,
    plan: PlanByCount | None = None,
) -> Pledge:
    """A pledge made through a champion from a phone the mobile network gave (the USSD menu's 'Give
    through a champion', a PLEDGE text naming their code): the campaign's pledge by phone (pledges'
    rules and per-phone limit), attributed to the champion."""
    with transaction.atomic():
        pledge = pledge_create_by_phone(
            campaign_id=champion.campaign_id,
            amount=amount,
            phone=phone,
            is_anonymous=is_anonymous,
            channel=channel,
            plan=plan,
        )
        Attribution.objects.create(champion=champion, pledge=pledge)
    return pledge


def champion_donation_create_by_phone(*, champion_id: int, amount: int, phone: str, idempotency_key: str) -> Donation:
    """An anonymous M-Pesa gift through a champion, its PIN prompt sent to the phone the network gave
    (the USSD menu's task): the campaign's gift by phone, attributed to the champion. The prompt is
    sent outside any transaction; the attribution follows it, once per donation (a retried task
    finds both). It counts for the champion when its payment does, whichever comes first."""
    champion = Champion.objects.filter(pk=champion_id).first()
    if champion is None:
        raise NotFoundError(_("Champion not found."), code="champion_not_found")
    donation = donation_create_by_phone(
        campaign_id=champion.campaign_id, amount=amount, phone=phone, idempotency_key=idempotency_key
    )
    Attribution.objects.get_or_create(donation=donation, defaults={"champion": champion})
    return donation


def champion_payments_claim(organization_id: int, payments: list[Payment]) -> set[int]:
    """Pledges' matching offers the organization's payments that matched no pledge code (locked, inside
    their crediting transaction): those whose account number is one of its champions' codes become
    donations to that champion's campaign, attributed to them. Answers the ids of those taken. The
    payer is anonymous on the campaign's lists: they typed an account number, not a public name."""
    code_of = {payment.pk: codes.normalize(payment.account_reference) for payment in payments}
    wanted = {code for code in code_of.values() if codes.is_valid_code(code)}
    if not wanted:
        return set()
    champions = {
        champion.code: champion
        for champion in Champion.objects.select_related("campaign").filter(
            code__in=wanted, campaign__organization_id=organization_id
        )
    }
    taken: set[int] = set()
    for payment in payments:
        champion = champions.get(code_of[payment.pk])
        if champion is None:
            continue
        payment_take_as_donation(payment=payment, campaign=champion.campaign)
        donation = donation_attach_payment(
            payment=payment,
            campaign=champion.campaign,
            name="",
            email="",
            phone=payment.payer_phone,
            is_anonymous=True,
        )
        Attribution.objects.get_or_create(donation=donation, defaults={"champion": champion})
        taken.add(payment.pk)
    return taken


@dataclass(frozen=True)
class CardGift:
    """A line written on a returned card: a pledge, cash, or M-Pesa (with its receipt code)."""

    kind: str  # "pledge" | "cash" | "mpesa"
    amount: int
    name: str = ""
    phone: str = ""
    mpesa_receipt: str = ""


def card_return_record(
    *,
    campaign_id: int,
    number: int,
    user: User,
    cash_total: int,
    mpesa_reported: int = 0,
    gifts: list[CardGift] | None = None,
) -> HarambeeCard:
    """A champion's card brought back to the desk (owners, treasurers, ushers): the gifts written on
    it are recorded as the desk records them (pledges; cash; M-Pesa by receipt, credited once however
    else it arrived), the cash in its envelope not written on a line as one unnamed cash gift, and
    each attributed to the card's champion. A card is returned once ('already returned')."""
    gifts = gifts or []
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    campaign_permission_check(
        campaign=campaign,
        user=user,
        permission=Permission.RECORD_AT_DESK,
        denied=_("Only the campaign's owners, treasurers and ushers, or an admin, can record returned cards."),
    )
    written_cash = sum(gift.amount for gift in gifts if gift.kind == "cash")
    if not 0 <= cash_total <= AMOUNT_MAX:
        raise _invalid("cash_total", _("Please enter the cash in whole shillings."))
    if written_cash > cash_total:
        raise _invalid("cash_total", _("The cash gifts written on the card are more than the cash counted."))
    with transaction.atomic():
        card = (
            HarambeeCard.objects.select_for_update()
            .select_related("champion")
            .filter(campaign=campaign, number=number)
            .first()
        )
        if card is None:
            raise NotFoundError(_("No card has this number."), code="card_not_found")
        if card.returned_at is not None:
            raise ServiceError(_("This card has already been returned."), code="card_already_returned")
        lines = [*gifts]
        if cash_total > written_cash:
            lines.append(CardGift(kind="cash", amount=cash_total - written_cash))
        for line in lines:
            _card_line_record(card=card, campaign=campaign, line=line, user=user)
        card.returned_at = timezone.now()
        card.returned_by = user
        card.mpesa_reported = mpesa_reported
        card.save(update_fields=["returned_at", "returned_by", "mpesa_reported"])
        return card


def _card_line_record(*, card: HarambeeCard, campaign: Campaign, line: CardGift, user: User) -> None:
    if line.kind == "pledge":
        pledge = pledge_create_at_desk(
            campaign=campaign, amount=line.amount, name=line.name, phone=line.phone, is_anonymous=False
        )
        Attribution.objects.create(champion=card.champion, pledge=pledge, card=card)
        return
    if line.kind not in ("cash", "mpesa"):
        raise _invalid("gifts", _("A card's line is a pledge, cash or M-Pesa."))
    gift = donation_record_at_desk(
        campaign=campaign,
        method=line.kind,
        amount=line.amount,
        name=line.name,
        phone=line.phone,
        is_anonymous=not line.name,
        mpesa_receipt=line.mpesa_receipt,
        recorded_by=user,
    )
    # An M-Pesa receipt already in the books paid a pledge, or is already a donation (perhaps paid with
    # this champion's code): it counted once, where it counted; a donation nobody brought is theirs.
    if gift.donation is not None:
        Attribution.objects.get_or_create(donation=gift.donation, defaults={"champion": card.champion, "card": card})


def champions_personal_data_erase(*, user: User) -> None:
    """An account deletion (``privacy``): their champion pages keep the money they brought (the campaign's
    books add up) under 'Deleted user', without phone, appeal or account, and off the leaderboards. Runs inside privacy's transaction; reads which campaigns' cached views to renew."""
    theirs = Champion.objects.filter(user=user)
    campaign_ids = set(theirs.values_list("campaign_id", flat=True))
    theirs.update(user=None, name=DELETED_USER_NAME, phone="", appeal="", on_leaderboard=False)
    for campaign_id in campaign_ids:
        campaign_changed(campaign_id=campaign_id)
