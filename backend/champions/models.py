"""Champions, their teams and their harambee cards: who raised a campaign's money, never where it went.

A champion is a person raising for a campaign from their own circle, with a page and a code (their
M-Pesa account number on the campaign's paybill). Champions are an ATTRIBUTION: every shilling given
through them is an ordinary pledge, donation or payment of the campaign, credited by pledges' and
payments' services into the organization's accounts; ``Attribution`` only says which champion brought
it (one row per pledge or donation, never twice). A team (the choir, the women's guild, a jumuiya)
groups champions; a harambee card is the numbered paper card a champion carries, returned at the desk.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from champions.codes import CODE_LENGTH, new_code

APPEAL_MAX_LENGTH = 500
NAME_MAX_LENGTH = 150
TEAM_NAME_MAX_LENGTH = 80


class Totals(models.Model):
    """What came in through a champion (or a team's champions), kept as running totals so the boards and
    pages are an ORDER BY over these columns. Recounted from the ledger's own rows, under the champion's
    row lock, in the transaction that credits, reverses or changes what is attributed to them
    (``champions.services.champions_totals_recount``). Both pledged figures are kept, so the campaign's
    public-figure rule may change without a recount; 'tonight' holds the day it was counted for, and
    reads as nothing on any other day (nothing of theirs has moved since midnight then)."""

    raised = models.PositiveBigIntegerField(default=0, help_text="Counted donations and payments to live pledges.")
    pledged = models.PositiveBigIntegerField(default=0, help_text="Live pledges.")
    pledged_public = models.PositiveBigIntegerField(
        default=0, help_text="Live pledges made signed in or with something paid (the public-figure rule)."
    )
    tonight = models.DateField(null=True, blank=True, help_text="The day the tonight_ figures are for.")
    tonight_raised = models.PositiveBigIntegerField(default=0)
    tonight_pledged = models.PositiveBigIntegerField(default=0)
    tonight_pledged_public = models.PositiveBigIntegerField(default=0)

    class Meta:
        abstract = True


class Team(Totals):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="champion_teams")
    name = models.CharField(max_length=TEAM_NAME_MAX_LENGTH)
    goal = models.PositiveIntegerField(default=0, help_text="Whole KES; 0: none.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "name"], name="champions_team_name_unique")]

    def __str__(self) -> str:
        return f"{self.name} (campaign {self.campaign_id})"


class Champion(Totals):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="champions")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="champions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="championships",
        help_text="Their account: a member who signed up, or the person the team named once they sign in.",
    )
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    phone = models.CharField(max_length=16, blank=True, help_text="E.164; the team's contact with them.")
    appeal = models.TextField(blank=True, max_length=APPEAL_MAX_LENGTH)
    goal = models.PositiveIntegerField(help_text="Their personal goal, whole KES.")
    # Unique over every campaign (not only its own): an organization's campaigns may share a paybill,
    # and an account number must name one champion there.
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code, editable=False)
    on_leaderboard = models.BooleanField(
        default=True, help_text="Shown on the campaign's leaderboards; off: their gifts still count, unnamed."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    gifts = models.PositiveIntegerField(default=0, help_text="Counted donations and live pledges paid something.")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"], condition=Q(user__isnull=False), name="champions_one_per_member"
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "-raised"], name="champions_board_idx"),
            models.Index(fields=["campaign", "tonight", "-tonight_raised"], name="champions_tonight_board_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.code}: {self.name} (campaign {self.campaign_id})"

    @property
    def page_path(self) -> str:
        return f"/campaign/{self.campaign_id}/c/{self.code}"


class HarambeeCard(models.Model):
    """A numbered paper card (one per champion), printed by the team and returned at the desk with
    the cash collected and the gifts written on it. Its totals are its attributions'."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="harambee_cards")
    number = models.PositiveIntegerField()
    champion = models.OneToOneField(Champion, on_delete=models.CASCADE, related_name="card")
    returned_at = models.DateTimeField(null=True, blank=True)
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    mpesa_reported = models.PositiveIntegerField(
        default=0,
        help_text="The M-Pesa total the champion wrote on the card: a check only, M-Pesa gifts count by their receipts.",
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="champions_card_number_unique")]

    def __str__(self) -> str:
        return f"Card {self.number} (campaign {self.campaign_id})"


class Attribution(models.Model):
    """Which champion brought a pledge or a donation: exactly one of the two, each at most once."""

    champion = models.ForeignKey(Champion, on_delete=models.PROTECT, related_name="attributions")
    pledge = models.OneToOneField(
        "pledges.Pledge", null=True, blank=True, on_delete=models.CASCADE, related_name="champion_attribution"
    )
    donation = models.OneToOneField(
        "pledges.Donation", null=True, blank=True, on_delete=models.CASCADE, related_name="champion_attribution"
    )
    card = models.ForeignKey(
        HarambeeCard, null=True, blank=True, on_delete=models.SET_NULL, related_name="attributions"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(pledge__isnull=False, donation__isnull=True)
                | Q(pledge__isnull=True, donation__isnull=False),
                name="champions_attribution_one_thing",
            )
        ]
        indexes = [models.Index(fields=["champion", "created_at"], name="champions_attr_recent_idx")]

    def __str__(self) -> str:
        thing = f"pledge {self.pledge_id}" if self.pledge_id else f"donation {self.donation_id}"
        return f"{thing} through champion {self.champion_id}"
