"""What the pledges and donations API reads and answers. Money is whole KES.

Masking: ``PledgeOut`` and ``DonationOut`` are built with ``for_viewer``. For anyone but the
campaign's organizer and admins, the e-mail and phone are replaced by placeholders and an
anonymous pledger's or donor's name by 'Anonymous', so the real values never leave the server.

Modules: ``core`` (what every schema shares), ``plans``, ``pledge`` and ``donations``. Every name is
re-exported here: ``from pledges.schemas import X``.
"""

from pledges.schemas.core import HIDDEN_EMAIL, IDEMPOTENCY_KEY, IGNORED
from pledges.schemas.donations import (
    DonationCreatedOut,
    DonationIn,
    DonationOut,
    MinistryCampaignOut,
    MyPledgeOut,
    MyPledgesOut,
    PledgeClaimIn,
    SetAsideIn,
    SetAsideOut,
)
from pledges.schemas.plans import PlanIn, PlanOut, StandingOrderOut
from pledges.schemas.pledge import (
    RECEIVED_ON,
    REFERENCE,
    AssignPaymentIn,
    CampaignQuery,
    ConfirmPaymentIn,
    ConfirmPaymentOut,
    ManualMethod,
    ManualPaymentIn,
    PageQuery,
    PledgeCancelIn,
    PledgeCorrectionIn,
    PledgeHistoryEntryOut,
    PledgeIn,
    PledgeListQuery,
    PledgeOut,
    PledgePaymentOut,
    PledgeReceiptOut,
    PledgeRestoreIn,
    PledgeStkPushIn,
    PledgeSummaryOut,
    StandingOrderIn,
    SuggestedPledgeOut,
    UnmatchedPaymentOut,
)

__all__ = [
    "HIDDEN_EMAIL",
    "IDEMPOTENCY_KEY",
    "IGNORED",
    "RECEIVED_ON",
    "REFERENCE",
    "AssignPaymentIn",
    "CampaignQuery",
    "ConfirmPaymentIn",
    "ConfirmPaymentOut",
    "DonationCreatedOut",
    "DonationIn",
    "DonationOut",
    "ManualMethod",
    "ManualPaymentIn",
    "MinistryCampaignOut",
    "MyPledgeOut",
    "MyPledgesOut",
    "PageQuery",
    "PlanIn",
    "PlanOut",
    "PledgeCancelIn",
    "PledgeClaimIn",
    "PledgeCorrectionIn",
    "PledgeHistoryEntryOut",
    "PledgeIn",
    "PledgeListQuery",
    "PledgeOut",
    "PledgePaymentOut",
    "PledgeReceiptOut",
    "PledgeRestoreIn",
    "PledgeStkPushIn",
    "PledgeSummaryOut",
    "SetAsideIn",
    "SetAsideOut",
    "StandingOrderIn",
    "StandingOrderOut",
    "SuggestedPledgeOut",
    "UnmatchedPaymentOut",
]
