from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from accounts.validators import STAFF_PASSWORD_MIN_LENGTH, staff_password_needed_to_become_staff


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_by_natural_key(self, username: str | None) -> "User":
        # E-mail addresses are unique whatever their case.
        return self.get(email__iexact=username)

    def create_user(self, email: str, password: str | None = None, **fields: Any) -> "User":
        user = self.model(email=User.normalize_email_address(email), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **fields: Any) -> "User":
        """An admin (``createsuperuser``): the password passes every validator for staff, 12 characters
        at least, even when the command was told to skip validation (its ValidationError is the command's error)."""
        fields.setdefault("is_staff", True)
        fields.setdefault("is_superuser", True)
        if password is not None:  # None: an unusable password, set later by a reset
            password_validation.validate_password(password, self.model(email=email, **fields))
        return self.create_user(email, password, **fields)


class User(AbstractBaseUser, PermissionsMixin):
    """A person who signs in with an e-mail address. Staff users are the platform's admins."""

    email = models.EmailField(unique=True)
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    phone = models.CharField(max_length=16, blank=True, help_text="E.164, e.g. +254712345678")
    # When its owner proved ``phone`` is theirs with a code sent to it (PhoneVerification); cleared
    # when the number changes, or when another account proves the same number.
    phone_verified_at = models.DateTimeField(null=True, blank=True, editable=False)
    id_number = models.CharField(max_length=9, blank=True)
    avatar_url = models.URLField(max_length=500, blank=True)
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text="Their choice, set at sign-up and by the language switch: the site switches to it when they "
        "sign in, and their e-mails are in it. Blank: none made (English).",
    )
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False, help_text="Staff users are admins and may use /admin/.")
    # Known only when a password is set (the hash hides its length): may this account become staff?
    password_is_admin_length = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects: ClassVar[UserManager] = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        constraints = [models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique")]

    def __str__(self) -> str:
        return self.email

    def set_password(self, raw_password: str | None) -> None:
        super().set_password(raw_password)
        self.password_is_admin_length = raw_password is not None and len(raw_password) >= STAFF_PASSWORD_MIN_LENGTH

    def clean(self) -> None:
        """An account becomes staff (in the admin) only with a password of admin length."""
        super().clean()
        was_staff = self.pk is not None and User.objects.filter(pk=self.pk, is_staff=True).exists()
        if self.is_staff and not was_staff and not self.password_is_admin_length:
            raise ValidationError({"is_staff": staff_password_needed_to_become_staff()})

    @staticmethod
    def normalize_email_address(email: str) -> str:
        return email.strip().lower()

    @property
    def is_admin(self) -> bool:
        return self.is_staff

    @property
    def full_name(self) -> str:
        return " ".join(part for part in (self.first_name.strip(), self.last_name.strip()) if part)

    @property
    def message_language(self) -> str:
        """The language of the e-mails they get: their choice, else the site's default."""
        return self.language or settings.LANGUAGE_CODE

    @property
    def verified_phone(self) -> str:
        """The phone number its owner proved is theirs; empty when none is."""
        return self.phone if self.phone_verified_at else ""

    @property
    def display_name(self) -> str:
        """The name the header greets: first name, else the e-mail's local part, else 'User'."""
        return self.first_name.strip() or self.email.partition("@")[0] or "User"


class PhoneVerification(models.Model):
    """A one-time code sent by SMS to prove a phone number is the user's: 6 digits, valid for
    ``LIFETIME``, ``MAX_TRIES`` guesses. Only a keyed hash of the code is kept. A new one replaces
    the user's earlier ones."""

    LIFETIME = timedelta(minutes=10)
    MAX_TRIES = 5
    CODE_DIGITS = 6

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="phone_verifications")
    phone = models.CharField(max_length=16, help_text="E.164")
    code_hash = models.CharField(max_length=64)
    tries = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} ({self.created_at:%Y-%m-%d %H:%M})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.expires_at is None:
            self.expires_at = self.created_at + self.LIFETIME
        super().save(*args, **kwargs)

    @staticmethod
    def hash_code(*, phone: str, code: str, salt: str) -> str:
        # Keyed with SECRET_KEY: a copy of the database alone cannot try the million codes.
        return salted_hmac("accounts.PhoneVerification", f"{salt}:{phone}:{code}", algorithm="sha256").hexdigest()

    def matches(self, code: str) -> bool:
        expected = self.hash_code(phone=self.phone, code=code, salt=str(self.pk))
        return constant_time_compare(expected, self.code_hash)

    def is_usable(self, now: datetime | None = None) -> bool:
        return self.verified_at is None and self.tries < self.MAX_TRIES and (now or timezone.now()) < self.expires_at
