from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from campaigns.categories import Category
from campaigns.uploads import picture_renditions
from campaigns.validators import validate_media_url, validate_payment_options
from collection_accounts.models import CollectionAccount
from organizations.models import Organization
from organizations.roles import Permission, role_allows
from organizations.selectors import membership_role


class CampaignType(models.TextChoices):
    PLEDGING = "pledging", _("Pledging")
    CROWDFUNDING = "crowdfunding", _("Crowdfunding")
    FUNDRAISING = "fundraising", _("Fundraising")


class CampaignStatus(models.TextChoices):
    """New pledge campaigns start pending (awaiting the activation payment). Active and closed ones are
    public: a closed one (closed early by its owners, or by an admin) keeps its page, its totals and
    its pledgers' payments, but takes no new pledges or donations. An admin may suspend a campaign
    (hidden, taking nothing) and lift the suspension; nothing else, payments included, moves a
    campaign into or out of ``SUSPENDED``."""

    PENDING = "pending", _("Pending")
    ACTIVE = "active", _("Active")
    CLOSED = "closed", _("Closed")
    SUSPENDED = "suspended", _("Suspended")


PUBLIC_STATUSES = (CampaignStatus.ACTIVE, CampaignStatus.CLOSED)


class MediaType(models.TextChoices):
    """What the cover shows: ``image_url`` as an image or a video, or the YouTube video ``youtube_id``."""

    IMAGE = "image", _("Image")
    VIDEO = "video", _("Video")
    YOUTUBE = "youtube", _("YouTube")


class SearchText(models.Func):
    """``title || ' ' || description``: the text the explore search looks in.

    Filter it with ``icontains``: on PostgreSQL that compiles to ``UPPER(<this>::text) LIKE ...``,
    exactly the expression of the trigram index of migration 0002, so the index answers it.
    """

    template = "(%(expressions)s)"
    arg_joiner = " || ' ' || "
    output_field = models.TextField()


class Campaign(models.Model):
    """A campaign people pledge or donate to. Goals and totals are whole Kenya shillings.

    ``pledged_total``, ``pledged_signed_in_or_paid_total``, ``raised_total`` and ``donor_count`` are counters:
    only the services of the
    pledges and donations apps change them, in the same transaction as the record they count
    (``F()`` updates), never from client input. Nothing here writes them except the demo data.
    """

    type = models.CharField(max_length=16, choices=CampaignType.choices, default=CampaignType.PLEDGING)
    status = models.CharField(max_length=16, choices=CampaignStatus.choices, default=CampaignStatus.PENDING)
    # Who runs it: the organization's team, by role (organizations/roles.py). ``organizer`` is the
    # person who created it, shown on its page and sent its organizer e-mails.
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="campaigns")
    suspension_reason = models.CharField(
        max_length=500, blank=True, help_text="Why an admin suspended the campaign, shown to its organizer."
    )
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns")
    title = models.CharField(max_length=200)
    description = models.CharField(max_length=500)
    story = models.TextField()
    category = models.CharField(max_length=32, choices=Category.choices)
    goal = models.PositiveIntegerField(help_text="Whole KES, at least 1.")
    # The cover. A CharField rather than a URLField: uploads and demo covers are paths on this site.
    image_url = models.CharField(max_length=500, blank=True, validators=[validate_media_url])
    youtube_id = models.CharField(max_length=11, blank=True)
    media_type = models.CharField(max_length=8, choices=MediaType.choices, default=MediaType.IMAGE)
    start_date = models.DateField(default=timezone.localdate)
    end_date = models.DateField()
    payment_options = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_payment_options],
        help_text='Legacy: up to 3 of {"method": "bank|mpesa_till|paybill|mpesa|cash", "details": {...}}, '
        "the ways to pay that did not become collection accounts (campaigns migration 0009): a personal "
        "M-Pesa number, shown with a warning to the team. New campaigns use ``collection_accounts``.",
    )
    collection_accounts: "models.ManyToManyField[CollectionAccount, CampaignCollectionAccount]" = (
        models.ManyToManyField(
            CollectionAccount, through="CampaignCollectionAccount", related_name="campaigns", blank=True
        )
    )
    pledge_ceiling = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The largest single pledge, whole KES; empty: the goal (``largest_pledge``).",
    )
    unsigned_pledges_count_after_payment = models.BooleanField(
        default=False,
        help_text="Pledges made without signing in count in the public figures only once something is paid "
        "(joke pledges stay off the progress bar; the team still sees them).",
    )
    instalments_past_end = models.BooleanField(
        default=False,
        help_text="Instalment plans may run past the end date, by up to 24 months (building drives).",
    )
    # A database default too: rows written by code that predates the column (a restored backup, a
    # migration test stepping back and forth) get False, not a NOT NULL error.
    may_be_featured = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Its owners agreed to have it shown, with its real totals, among the landing page's success stories.",
    )
    pledged_total = models.PositiveBigIntegerField(default=0)
    # The live pledges made signed in or paid in part: the public pledged figure when
    # ``unsigned_pledges_count_after_payment`` is on (``public_pledged_total``).
    pledged_signed_in_or_paid_total = models.PositiveBigIntegerField(default=0)
    raised_total = models.PositiveBigIntegerField(default=0)
    donor_count = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=models.Q(goal__gte=1), name="campaigns_campaign_goal_gte_1")]
        # Search over title and description uses a trigram index on PostgreSQL (migration 0002);
        # the filter index narrows its matches to a category without reading the rows.
        indexes = [
            models.Index(fields=["type", "status", "-created_at", "-id"], name="campaigns_listing_idx"),
            models.Index(fields=["category", "type", "status"], name="campaigns_filter_idx"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def category_label(self) -> str:
        # Not get_category_display(): it translates every category's label to find this one,
        # which was most of the time of a page of campaigns.
        try:
            return str(Category(self.category).label)
        except ValueError:
            return self.category

    @property
    def largest_pledge(self) -> int:
        """The largest single pledge it accepts: its own ceiling, else its goal."""
        return self.pledge_ceiling or self.goal

    @property
    def public_pledged_total(self) -> int:
        """The pledged figure visitors see (totals, progress bars, Explore, any big screen): every live
        pledge, or, with ``unsigned_pledges_count_after_payment``, those made signed in or paid in part."""
        return self.pledged_signed_in_or_paid_total if self.unsigned_pledges_count_after_payment else self.pledged_total

    @property
    def progress_percent_uncapped(self) -> int:
        """The public pledged figure over goal in whole percent, rounded down; above 100 once passed."""
        return self.public_pledged_total * 100 // max(self.goal, 1)

    @property
    def progress_percent(self) -> int:
        """``progress_percent_uncapped`` capped at 100, for progress bars."""
        return min(self.progress_percent_uncapped, 100)

    @property
    def days_left(self) -> int:
        """Whole days until the end date in Nairobi, 0 once it has passed."""
        return max((self.end_date - timezone.localdate()).days, 0)

    @property
    def has_ended(self) -> bool:
        """Active, but its end date (Nairobi) has passed: it takes no new pledges or donations and
        leaves Explore, yet keeps its page for those paying their pledges."""
        return self.status == CampaignStatus.ACTIVE and self.end_date < timezone.localdate()

    @property
    def youtube_url(self) -> str:
        return f"https://www.youtube.com/watch?v={self.youtube_id}" if self.youtube_id else ""

    @property
    def cover_image_url(self) -> str:
        """A still image for cards and link previews: the image, else the YouTube thumbnail, else ''."""
        if self.media_type == MediaType.YOUTUBE and self.youtube_id:
            return f"https://i.ytimg.com/vi/{self.youtube_id}/hqdefault.jpg"
        if self.media_type == MediaType.IMAGE:
            return self.image_url
        return ""

    @property
    def cover_srcset(self) -> list[dict[str, object]]:
        """The WebP renditions of an uploaded cover picture, narrowest first; [] for other covers."""
        return picture_renditions(self.image_url) if self.media_type == MediaType.IMAGE else []

    @property
    def share_url(self) -> str:
        return f"{settings.SITE_URL}/campaign/{self.pk}"

    @property
    def can_be_shared(self) -> bool:
        """Only active campaigns have a share panel, a QR code and link previews."""
        return self.status == CampaignStatus.ACTIVE

    def role_of(self, user: User | None) -> str | None:
        """``user``'s role in the campaign's organization (None: not a member). One query the
        first time for each user, none after: a request asks several rules of the same campaign."""
        if user is None or not user.is_authenticated:
            return None
        roles = self._known_roles()
        if user.pk not in roles:
            roles[user.pk] = membership_role(user=user, organization_id=self.organization_id)
        return roles[user.pk]

    def role_known(self, user: User, role: str | None) -> None:
        """Tell ``role_of`` ``user``'s role, read with the campaign (a selector's annotation)."""
        self._known_roles()[user.pk] = role

    def _known_roles(self) -> dict[int, str | None]:
        roles: dict[int, str | None] = self.__dict__.setdefault("_roles", {})
        return roles

    def allows(self, user: User | None, permission: Permission) -> bool:
        """Whether ``user`` may do what ``permission`` covers here: by their role in the
        organization (organizations/roles.py), or as an admin (anything)."""
        if user is None or not user.is_active:
            return False
        return user.is_admin or role_allows(self.role_of(user), permission)

    def is_visible_to(self, user: User | None) -> bool:
        """Active and closed campaigns are public (a closed one's pledgers still pay through it);
        pending and suspended ones only to their team and admins."""
        return self.status in PUBLIC_STATUSES or self.allows(user, Permission.SEE_UNPUBLISHED)

    def can_be_edited_by(self, user: User | None) -> bool:
        return self.allows(user, Permission.EDIT_CAMPAIGNS)


class CampaignCollectionAccount(models.Model):
    """One of the 1 to 3 accounts of its organization a campaign's givers pay into, in the order its
    page shows them. An account that campaigns use cannot be deleted (``PROTECT``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="account_links")
    account = models.ForeignKey(CollectionAccount, on_delete=models.PROTECT, related_name="campaign_links")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["campaign_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "account"], name="campaigns_account_once"),
            models.UniqueConstraint(fields=["campaign", "position"], name="campaigns_account_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} #{self.position}: {self.account_id}"


class CampaignLike(models.Model):
    """A signed-in user's like of a campaign; at most one per user and campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="likes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_likes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="campaigns_like_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} likes {self.campaign_id}"


class DraftToolType(models.TextChoices):
    PLEDGING = "pledging", _("Pledging")
    GRANT_FUNDING = "grant_funding", _("Grant funding")


class Draft(models.Model):
    """A wizard in progress, kept on the server so it resumes on any device.

    ``step_data`` is the wizard's form as the client last saved it (at most ``STEP_DATA_MAX_BYTES``);
    ``current_step`` the step it was on. Completed drafts stay for the record but are never resumed.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_drafts")
    tool_type = models.CharField(max_length=16, choices=DraftToolType.choices)
    step_data = models.JSONField(default=dict, blank=True)
    current_step = models.PositiveSmallIntegerField(default=0)
    is_completed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["user", "tool_type", "is_completed"], name="campaigns_draft_open_idx")]

    def __str__(self) -> str:
        return f"{self.get_tool_type_display()} draft {self.pk} of {self.user_id}"


class WizardFeedback(models.Model):
    """The optional form of the wizard's 'Thank You for Your Interest!' dialog."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="wizard_feedback")
    campaign = models.ForeignKey(Campaign, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    liked = models.TextField(blank=True, help_text="What they liked.")
    confusing = models.TextField(blank=True, help_text="What was confusing.")
    features_wanted = models.TextField(blank=True, help_text="Other features they would like.")
    rating = models.PositiveSmallIntegerField(default=3, help_text="1 to 5.")
    wants_interview = models.BooleanField(default=False, help_text="Open to a follow-up interview.")
    contact = models.CharField(max_length=200, blank=True, help_text="E-mail or phone for the interview.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "wizard feedback"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__gte=1, rating__lte=5), name="campaigns_wizardfeedback_rating_1_5"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rating}/5 from {self.user_id}"
