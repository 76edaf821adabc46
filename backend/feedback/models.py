from django.conf import settings
from django.db import models


class Feedback(models.Model):
    """A message sent from the floating feedback button, by a visitor or a signed-in user."""

    message = models.TextField()
    contact = models.CharField(max_length=200, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    page = models.CharField(max_length=300, blank=True, help_text="The path the sender was on.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "feedback"

    def __str__(self) -> str:
        return self.message[:60]
