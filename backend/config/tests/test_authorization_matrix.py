"""Who may do what: every operation of the OpenAPI schema by every kind of actor → the status expected.

One row per operation in ``MATRIX``; an operation added to the API without a row fails
``test_every_operation_of_the_schema_has_a_row``. Each request is valid for the actor who may
make it, so the status says only whether the server let them: browsers go through the HTTP
client with the CSRF token, as the React app does.

The actors: a visitor; an outsider (signed in, with nothing of their own); the owner of the
object's organization, who also organized it (its campaign, pledge, draft, payment, grant
profile; a subscriber); a treasurer, an usher and a viewer of that organization
(organizations/roles.py says what each may do); the owner of another organization's campaign; an
admin (staff). 404 for someone else's draft or payment is deliberate: they are not told it exists.
"""

import copy
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import PhoneVerification, User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from campaigns import drafts
from campaigns.models import Campaign, CampaignStatus, Draft, DraftToolType
from campaigns.tests.factories import CampaignFactory, link_account
from campaigns.tests.wizard_support import image_bytes
from champions.models import Champion
from champions.services import champion_create
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from collection_accounts.tests.factories import TEST_PAYBILL, CollectionAccountFactory
from config.api import api
from desk.actors import DeskActor
from desk.models import DeskPasscode
from desk.services import (
    cash_count_record,
    cash_reconciliation_sign_off,
    desk_entry_record,
    desk_passcode_issue,
)
from events.models import Event, HiddenEntry
from events.tests.factories import open_event
from giving.models import StatementRun
from giving.selectors import organization_givers
from giving.services import statement_link
from grants.models import Grant
from grants.tests.factories import GrantFactory, OrganizationProfileFactory, subscribe
from notifications.selectors import opt_out_token
from organizations.models import ChangeRequest, EmbedOrigin, Invitation, Membership, Organization
from organizations.roles import Role
from organizations.services import team_role_change
from payments.models import AirtelConnection, MpesaConnection, Payment
from payments.services import payment_record_manual
from payments.services import stale as payments_stale
from pledges.models import InstalmentPlan, Pledge
from pledges.tests.factories import PledgeFactory, make_pledge, paid_donation
from simulators.statements import BankLine, Line, bank_statement_csv, statement_csv
from spending.receipts import receipt_store
from spending.services import spending_approve, spending_record
from statements.models import StatementImport
from statements.services import statement_import_confirm, statement_import_upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("payment_providers")]

ACTORS = ("visitor", "outsider", "owner", "treasurer", "usher", "viewer", "other_owner", "admin")

# fmt: off
MATRIX: dict[str, tuple[int, int, int, int, int, int, int, int]] = {
    #                                                     visitor outsider owner treasurer usher viewer other admin
    # Accounts
    "GET /api/auth/session":                              (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/signup":                                   (201, 201, 201, 201, 201, 201, 201, 201),
    "POST /api/auth/signin":                              (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/auth/signout":                             (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/auth/password-reset":                      (202, 202, 202, 202, 202, 202, 202, 202),
    "POST /api/auth/password-reset/confirm":              (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/profile":                                   (401, 200, 200, 200, 200, 200, 200, 200),
    "PATCH /api/profile":                                 (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/profile/password":                         (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/profile/phone-verification":               (401, 202, 202, 202, 202, 202, 202, 202),
    "POST /api/profile/phone-verification/confirm":       (401, 200, 200, 200, 200, 200, 200, 200),
    "PUT /api/auth/language":                             (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/profile/export":                            (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/profile/delete":                           (401, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/privacy-contact":                           (200, 200, 200, 200, 200, 200, 200, 200),
    # The proof-of-work challenge past a per-address limit: anyone
    "GET /api/challenge":                                 (200, 200, 200, 200, 200, 200, 200, 200),
    # The USSD code to dial, for campaign pages and posters: anyone (the gateway's callback is not in the schema)
    "GET /api/ussd":                                      (200, 200, 200, 200, 200, 200, 200, 200),
    # Campaigns: public reads; editing and closing early by its owners or an admin; status by admins only
    "GET /api/fees":                                      (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/success-stories":                           (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/campaign-categories":                       (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/campaigns":                                 (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/campaigns":                                (401, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/campaigns/{campaign_id}":                   (200, 200, 200, 200, 200, 200, 200, 200),
    "PATCH /api/campaigns/{campaign_id}":                 (401, 403, 200, 403, 403, 403, 403, 200),
    "POST /api/campaigns/{campaign_id}/status":           (401, 403, 403, 403, 403, 403, 403, 200),
    "POST /api/campaigns/{campaign_id}/close":            (401, 403, 200, 403, 403, 403, 403, 200),
    "POST /api/campaigns/{campaign_id}/likes":            (401, 200, 200, 200, 200, 200, 200, 200),
    "DELETE /api/campaigns/{campaign_id}/likes":          (401, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/campaigns/{campaign_id}/qr.svg":            (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/campaigns/{campaign_id}/views":            (204, 204, 204, 204, 204, 204, 204, 204),
    "GET /api/campaigns/{campaign_id}/analytics":         (401, 403, 200, 200, 403, 200, 403, 200),
    "GET /api/campaigns/{campaign_id}/analytics.csv":     (401, 403, 200, 200, 403, 200, 403, 200),
    "GET /api/campaigns/{campaign_id}/reminder-settings": (401, 403, 200, 200, 403, 200, 403, 200),
    "PUT /api/campaigns/{campaign_id}/reminder-settings": (401, 403, 200, 200, 403, 403, 403, 200),
    "GET /api/campaign-drafts":                           (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/campaign-drafts":                          (401, 201, 201, 201, 201, 201, 201, 201),
    "PUT /api/campaign-drafts/{draft_id}":                (401, 404, 200, 404, 404, 404, 404, 404),
    "POST /api/media":                                    (401, 201, 201, 201, 201, 201, 201, 201),
    "POST /api/pledging-campaigns":                       (401, 201, 201, 201, 201, 201, 201, 201),
    "POST /api/wizard-feedback":                          (401, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/dashboard":                                 (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/feedback":                                 (201, 201, 201, 201, 201, 201, 201, 201),
    # Grants: the profile is anyone's own; search and tracking for subscribers
    "GET /api/organizations/profile":                     (401, 404, 200, 404, 404, 404, 404, 404),
    "PUT /api/organizations/profile":                     (401, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/grants":                                    (401, 403, 200, 403, 403, 403, 403, 403),
    "PUT /api/grants/{grant_id}/application":             (401, 403, 200, 403, 403, 403, 403, 403),
    # Payments: fees are the organizer's own; a payment is seen by whoever made it
    "GET /api/organizations":                             (401, 403, 200, 403, 403, 403, 403, 403),
    "POST /api/payments/stk-push":                        (401, 404, 201, 404, 404, 404, 404, 404),
    "POST /api/payments/checkout":                        (401, 404, 201, 404, 404, 404, 404, 404),
    "GET /api/payments/{reference}":                      (404, 404, 200, 404, 404, 404, 404, 404),
    # Organizations: members see theirs (404 for anyone else); owners change the details and the team
    "GET /api/orgs":                                      (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/orgs":                                     (401, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/orgs/{organization_id}":                    (401, 404, 200, 200, 200, 200, 404, 404),
    "PATCH /api/orgs/{organization_id}":                  (401, 404, 200, 403, 403, 403, 404, 404),
    "GET /api/orgs/{organization_id}/members":            (401, 404, 200, 200, 200, 200, 404, 404),
    "PUT /api/orgs/{organization_id}/members/{membership_id}":    (401, 404, 200, 403, 403, 403, 404, 404),
    "DELETE /api/orgs/{organization_id}/members/{membership_id}": (401, 404, 204, 403, 403, 403, 404, 404),
    # The two-person rule: another owner or treasurer approves; whoever asked, or an owner, withdraws
    "GET /api/orgs/{organization_id}/approvals":          (401, 404, 200, 200, 200, 200, 404, 404),
    "POST /api/orgs/{organization_id}/approvals/{change_request_id}/approve":  (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/approvals/{change_request_id}/withdraw": (401, 404, 200, 403, 403, 403, 404, 404),
    # Invitations: owners send, list and revoke; the link's holder sees it; the invited one accepts
    # (members already in the team: 400)
    "GET /api/orgs/{organization_id}/invitations":        (401, 404, 200, 403, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/invitations":       (401, 404, 201, 403, 403, 403, 404, 404),
    "DELETE /api/orgs/{organization_id}/invitations/{invitation_id}": (401, 404, 204, 403, 403, 403, 404, 404),
    "GET /api/invitations":                               (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/invitations/accept":                       (401, 200, 400, 400, 400, 400, 200, 200),
    # Websites allowed to frame the campaigns' embed (config/embed.py): the team sees them, owners change them
    "GET /api/orgs/{organization_id}/embed-origins":      (401, 404, 200, 200, 200, 200, 404, 404),
    "POST /api/orgs/{organization_id}/embed-origins":     (401, 404, 201, 403, 403, 403, 404, 404),
    "DELETE /api/orgs/{organization_id}/embed-origins/{origin_id}": (401, 404, 204, 403, 403, 403, 404, 404),
    # Collection accounts: every member sees where the money is paid; owners and treasurers change it,
    # under the two-person rule (the world's organization has two owners: 202, waiting for approval)
    "GET /api/orgs/{organization_id}/collection-accounts":                (401, 404, 200, 200, 200, 200, 404, 404),
    "POST /api/orgs/{organization_id}/collection-accounts":               (401, 404, 202, 202, 403, 403, 404, 404),
    "PATCH /api/orgs/{organization_id}/collection-accounts/{account_id}":  (401, 404, 202, 202, 403, 403, 404, 404),
    "DELETE /api/orgs/{organization_id}/collection-accounts/{account_id}": (401, 404, 202, 202, 403, 403, 404, 404),
    # A campaign's accounts: its organization's team sees them; owners and treasurers switch them (202)
    "GET /api/campaigns/{campaign_id}/collection-accounts":               (401, 403, 200, 200, 200, 200, 403, 403),
    "PUT /api/campaigns/{campaign_id}/collection-accounts":               (401, 403, 202, 202, 403, 403, 403, 403),
    "GET /api/orgs/{organization_id}/account-keywords":                    (401, 404, 200, 200, 200, 200, 404, 404),
    "PUT /api/orgs/{organization_id}/account-keywords":                    (401, 404, 200, 200, 403, 403, 404, 404),
    # Connected M-Pesa (the organization's own Daraja app on a paybill or till): owners and treasurers only
    "GET /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa":          (401, 404, 200, 200, 403, 403, 404, 404),
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa":          (401, 404, 202, 202, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/test":    (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/connect": (401, 404, 202, 202, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/pull":    (401, 404, 200, 200, 403, 403, 404, 404),
    # Cards (a bank account's Paystack subaccount) and M-Pesa Ratiba: owners and treasurers, under the
    # two-person rule
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/cards":          (401, 404, 202, 202, 403, 403, 404, 404),
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/ratiba":   (401, 404, 202, 202, 403, 403, 404, 404),
    # Airtel Money (the organization's Airtel Open API app on its Airtel Money account): owners and
    # treasurers, under the two-person rule
    "GET /api/orgs/{organization_id}/collection-accounts/{account_id}/airtel":         (401, 404, 200, 200, 403, 403, 404, 404),
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/airtel":         (401, 404, 202, 202, 403, 403, 404, 404),
    # Statement imports: owners and treasurers only
    "GET /api/orgs/{organization_id}/statement-imports":                        (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/statement-imports":                       (401, 404, 201, 201, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/statement-imports/bank-columns":          (401, 404, 200, 200, 403, 403, 404, 404),
    "GET /api/orgs/{organization_id}/statement-imports/{import_id}":            (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/statement-imports/{import_id}/confirm":   (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/statement-imports/{import_id}/undo":      (401, 404, 200, 200, 403, 403, 404, 404),
    # Pledges and donations: public giving; Pledge Management for the organizer and admins
    "POST /api/pledges":                                  (201, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/pledges":                                   (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/pledges/{code}":                            (200, 200, 200, 200, 200, 200, 200, 200),
    # One's own pledges, and claiming those made by phone from one's verified number: any account
    "GET /api/my-pledges":                                (401, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/my-pledges/claim":                         (401, 200, 200, 200, 200, 200, 200, 200),
    # One's own giving across organizations, and its statement; a statement link needs no account
    "GET /api/my-giving":                                 (401, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/my-giving/statement.pdf":                   (401, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/giving/s/{token}":                          (200, 200, 200, 200, 200, 200, 200, 200),
    # An organization's yearly statements to its givers: owners and treasurers
    "GET /api/orgs/{organization_id}/giving-statements/preview":        (401, 404, 200, 200, 403, 403, 404, 404),
    "GET /api/orgs/{organization_id}/giving-statements/sample.pdf":     (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/orgs/{organization_id}/giving-statements/runs":          (401, 404, 202, 202, 403, 403, 404, 404),
    "GET /api/orgs/{organization_id}/giving-statements/runs":           (401, 404, 200, 200, 403, 403, 404, 404),
    "GET /api/orgs/{organization_id}/giving-statements/runs/{run_id}":  (401, 404, 200, 200, 403, 403, 404, 404),
    "POST /api/pledges/{code}/stk-push":                  (201, 201, 201, 201, 201, 201, 201, 201),
    "POST /api/pledges/{code}/airtel-push":               (201, 201, 201, 201, 201, 201, 201, 201),
    "PUT /api/pledges/{code}/plan":                       (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/pledges/{code}/standing-order":            (201, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/pledges/export.csv":                        (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/confirm-payment":                          (401, 403, 200, 200, 403, 403, 403, 200),
    "GET /api/pledges/{pledge_id}/payments":              (401, 403, 200, 200, 403, 200, 403, 200),
    "POST /api/pledges/{pledge_id}/payments":             (401, 403, 201, 201, 403, 403, 403, 201),
    "POST /api/pledges/{pledge_id}/correction":           (401, 403, 200, 200, 403, 403, 403, 200),
    "PUT /api/pledges/{pledge_id}/instalment-plan":       (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/pledges/{pledge_id}/cancellation":         (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/pledges/{pledge_id}/restoration":          (401, 403, 200, 200, 403, 403, 403, 200),
    "GET /api/pledges/{pledge_id}/history":               (401, 403, 200, 200, 403, 200, 403, 200),
    "POST /api/payments/{reference}/reversal":            (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/pledges/{pledge_id}/assign-payment":       (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/pledges/{pledge_id}/remind":               (401, 403, 202, 202, 403, 403, 403, 202),
    "GET /api/campaigns/{campaign_id}/pledge-summary":    (401, 403, 200, 200, 403, 200, 403, 200),
    "GET /api/campaigns/{campaign_id}/unmatched-payments":(401, 403, 200, 200, 403, 200, 403, 200),
    "POST /api/campaigns/{campaign_id}/unmatched-payments/set-aside": (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/donations":                                (201, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/donations":                                 (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/donations/export.csv":                      (401, 403, 200, 200, 403, 403, 403, 200),
    "GET /api/ministry-campaign":                         (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/notifications/opt-out":                     (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/notifications/opt-out":                    (200, 200, 200, 200, 200, 200, 200, 200),
    # Events: the team sees them, owners run them; the big screen is public; owners, treasurers and
    # ushers hide entries from its feed
    "GET /api/campaigns/{campaign_id}/events":            (401, 403, 200, 200, 200, 200, 403, 200),
    "POST /api/campaigns/{campaign_id}/events":           (401, 403, 201, 403, 403, 403, 403, 201),
    "POST /api/events/{event_id}/open":                   (401, 403, 200, 403, 403, 403, 403, 200),
    "POST /api/events/{event_id}/close":                  (401, 403, 200, 403, 403, 403, 403, 200),
    "GET /api/campaigns/{campaign_id}/live":              (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/campaigns/{campaign_id}/live/hidden":      (401, 403, 204, 204, 204, 403, 403, 204),
    "GET /api/campaigns/{campaign_id}/live/hidden":       (401, 403, 200, 200, 200, 403, 403, 200),
    "DELETE /api/campaigns/{campaign_id}/live/hidden/{kind}/{entry_id}": (401, 403, 204, 204, 204, 403, 403, 204),
    # The ushers' desk: owners, treasurers and ushers record (a volunteer's passcode too: desk tests);
    # owners issue passcodes; anyone may try one (limited per address)
    "GET /api/campaigns/{campaign_id}/desk":              (401, 403, 200, 200, 200, 403, 403, 200),
    "POST /api/events/{event_id}/desk-entries":           (401, 403, 201, 201, 201, 403, 403, 201),
    "POST /api/events/{event_id}/desk-passcodes":         (401, 403, 201, 403, 403, 403, 403, 201),
    "GET /api/events/{event_id}/desk-passcodes":          (401, 403, 200, 403, 403, 403, 403, 200),
    "POST /api/events/{event_id}/desk-passcodes/{passcode_id}/revocation": (401, 403, 204, 403, 403, 403, 403, 204),
    "POST /api/desk/sign-in":                             (200, 200, 200, 200, 200, 200, 200, 200),
    # An event's cash count: owners and treasurers count, sign off and reopen; viewers see it
    "GET /api/events/{event_id}/cash-reconciliation":     (401, 403, 200, 200, 403, 200, 403, 200),
    "PUT /api/events/{event_id}/cash-counts/{usher_key}": (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/events/{event_id}/cash-reconciliation/sign-off": (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/events/{event_id}/cash-reconciliation/reopen":   (401, 403, 200, 200, 403, 403, 403, 200),
    # The night's report names its givers: those who see Pledge Management read it, those who manage
    # pledges download it and thank the givers (a volunteer's passcode none of these: a visitor)
    "GET /api/events/{event_id}/report":                  (401, 403, 200, 200, 403, 200, 403, 200),
    "GET /api/events/{event_id}/report.csv":              (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/events/{event_id}/thanks":                 (401, 403, 202, 202, 403, 403, 403, 202),
    # Champions: boards, pages and pledging through one are public; anyone signed in becomes one; the
    # champion or the campaign's owners and treasurers change one (the world's was named by its owner:
    # nobody's own, so nobody finds it as theirs); its circle for those who see pledges, and so the list
    # of every champion; teams, printing the cards and reminding a circle for those who manage pledges;
    # a returned card at the desk
    "GET /api/campaigns/{campaign_id}/champions":         (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/campaigns/{campaign_id}/champions":        (401, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/campaigns/{campaign_id}/champions/{champion_code}":          (200, 200, 200, 200, 200, 200, 200, 200),
    "PATCH /api/campaigns/{campaign_id}/champions/{champion_code}":        (401, 403, 200, 200, 403, 403, 403, 200),
    "GET /api/campaigns/{campaign_id}/champions/{champion_code}/qr.svg":   (200, 200, 200, 200, 200, 200, 200, 200),
    "POST /api/campaigns/{campaign_id}/champions/{champion_code}/pledges": (201, 201, 201, 201, 201, 201, 201, 201),
    "GET /api/campaigns/{campaign_id}/champions/{champion_code}/circle":   (401, 403, 200, 200, 403, 200, 403, 200),
    "POST /api/campaigns/{campaign_id}/champion-teams":   (401, 403, 201, 201, 403, 403, 403, 201),
    "GET /api/campaigns/{campaign_id}/my-champion":       (401, 404, 404, 404, 404, 404, 404, 404),
    "GET /api/campaigns/{campaign_id}/champion-roster":   (401, 403, 200, 200, 403, 200, 403, 200),
    "POST /api/campaigns/{campaign_id}/champions/{champion_code}/remind":  (401, 403, 202, 202, 403, 403, 403, 202),
    "GET /api/campaigns/{campaign_id}/harambee-cards.pdf": (401, 403, 200, 200, 403, 403, 403, 200),
    "POST /api/campaigns/{campaign_id}/harambee-cards/{number}/return":   (401, 403, 200, 200, 200, 403, 403, 200),
    # How the money was used: public figures and published receipts; those who see pledges read the lines
    # and the committee's report; owners and treasurers record, approve another's line, reverse and post
    # updates (an admin does not vouch for a church's spending)
    "GET /api/campaigns/{campaign_id}/accountability":    (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/spending/{record_id}/receipt":              (200, 200, 200, 200, 200, 200, 200, 200),
    "GET /api/campaigns/{campaign_id}/spending":          (401, 403, 200, 200, 403, 200, 403, 200),
    "POST /api/campaigns/{campaign_id}/spending":         (401, 403, 201, 201, 403, 403, 403, 403),
    "POST /api/spending/{record_id}/approval":            (401, 403, 200, 200, 403, 403, 403, 403),
    "POST /api/spending/{record_id}/reversal":            (401, 403, 201, 201, 403, 403, 403, 403),
    "POST /api/campaigns/{campaign_id}/progress-updates": (401, 403, 201, 201, 403, 403, 403, 403),
    "GET /api/campaigns/{campaign_id}/spending-report.pdf": (401, 403, 200, 200, 403, 200, 403, 200),
    "GET /api/campaigns/{campaign_id}/spending-report.csv": (401, 403, 200, 200, 403, 200, 403, 200),
}

# A volunteer's browser signed in with a desk passcode (of the world's open event) is a visitor
# everywhere but at the desk, where it adds entries to its own event only.
PASSCODE_DIFFERS_FROM_VISITOR: dict[str, int] = {
    "GET /api/campaigns/{campaign_id}/desk":              403,  # another campaign's desk
    "POST /api/events/{event_id}/desk-entries":           201,
}
# fmt: on


@dataclass
class World:
    """The objects the requests are about; ``organizer`` owns all of them."""

    organizer: User
    other_organizer: User
    campaign: Campaign
    pending_campaign: Campaign
    pledge: Pledge
    draft: Draft
    fee_payment: Payment
    unmatched_payment: Payment
    manual_payment: Payment
    cancelled_pledge: Pledge
    grant: Grant
    team_member: Membership
    change_request: ChangeRequest
    invitation: Invitation
    embed_origin: EmbedOrigin
    collection_account: CollectionAccount
    event: Event
    open_event: Event
    bank_account: CollectionAccount
    statement_account: CollectionAccount
    statement_import: StatementImport
    confirmed_import: StatementImport
    closed_event: Event
    desk_passcode: DeskPasscode
    airtel_account: CollectionAccount
    airtel_pledge: Pledge
    champion: Champion


@pytest.fixture(scope="module")
def shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world, built once for the module's 1,200 tests (building it is most of each test's time), in a
    transaction rolled back after them; each test runs in a savepoint inside it and rolls back what it
    changed, as Django's ``TestCase.setUpTestData``. (A pytest-xdist worker builds it again whenever it
    comes back to this module after another's tests.)"""
    with django_db_blocker.unblock():
        shared = transaction.atomic()
        shared.__enter__()
        try:
            built = world_build()
        except BaseException:
            shared.__exit__(*sys.exc_info())
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        shared.__exit__(None, None, None)


@pytest.fixture
def world(settings: Any, db: None, shared_world: World, monkeypatch: pytest.MonkeyPatch) -> World:
    """The shared world, its objects copied so that a test's changes to them stay its own. Its pending card
    payment never turns stale, however long the module runs on a busy machine: past ``QUERY_AFTER`` (2 minutes
    after the world was built) reading it would ask Paystack, inside the module's transaction."""
    settings.MINISTRY_CAMPAIGN_ID = shared_world.campaign.pk
    monkeypatch.setattr(payments_stale, "QUERY_AFTER", timedelta(days=365))
    return copy.deepcopy(shared_world)


def airtel_account_connected(organization: Organization) -> CollectionAccount:
    """An Airtel Money account whose Airtel app credentials are set."""
    account = CollectionAccountFactory.create(
        organization=organization,
        kind=CollectionAccountKind.AIRTEL_MONEY,
        paybill_number="",
        merchant_msisdn="+254733000111",
        airtel_connected_at=timezone.now(),
        is_default=False,
    )
    AirtelConnection.objects.create(account=account, client_id="church-airtel-id", client_secret="church-airtel-secret")
    return account


def airtel_pledge_made(organizer: User, account: CollectionAccount) -> Pledge:
    """A pledge to a campaign of the organization paid into its Airtel Money account."""
    campaign = CampaignFactory.create(organizer=organizer)
    link_account(campaign, account)
    return make_pledge(campaign, phone="0733123456")


def world_build() -> World:
    organizer = UserFactory.create()
    subscribe(organizer)
    OrganizationProfileFactory.create(user=organizer)
    other_organizer = UserFactory.create()
    CampaignFactory.create(organizer=other_organizer)
    campaign = CampaignFactory.create(organizer=organizer, paybill=TEST_PAYBILL)
    # Another admin, so that the admin actor is not the last one (who may not delete their account).
    UserFactory.create(is_staff=True, is_superuser=True)
    team_member = Membership.objects.create(
        organization=campaign.organization, user=UserFactory.create(), role=Role.VIEWER
    )
    # A second owner asked to raise the viewer to treasurer: with two owners it waits for approval.
    co_owner = Membership.objects.create(organization=campaign.organization, user=UserFactory.create(), role=Role.OWNER)
    change_request = team_role_change(
        user=co_owner.user, organization_id=campaign.organization_id, membership_id=team_member.pk, role="treasurer"
    )
    assert isinstance(change_request, ChangeRequest)
    legacy_bank_account(campaign.organization)
    # Statements are imported into another paybill: an imported one cannot be removed (the DELETE row's).
    statement_account = CollectionAccountFactory.create(organization=campaign.organization, is_default=False)
    world_event = Event.objects.create(
        campaign=campaign,
        title="Harambee Sunday",
        starts_at=timezone.now(),
        ends_at=timezone.now() + timedelta(hours=3),
    )
    return World(
        organizer=organizer,
        other_organizer=other_organizer,
        campaign=campaign,
        pending_campaign=CampaignFactory.create(organizer=organizer, status=CampaignStatus.PENDING),
        # Counted like any pledge, so that correcting or cancelling it moves the campaign's totals.
        pledge=make_pledge(campaign, phone="0708374149"),
        draft=drafts.draft_create(user=organizer, tool_type=DraftToolType.PLEDGING, step_data={}, current_step=1),
        fee_payment=Payment.objects.create(
            provider=Payment.Provider.CARD, purpose=Payment.Purpose.SUBSCRIPTION, amount=2500, user=organizer
        ),
        unmatched_payment=Payment.objects.create(
            provider=Payment.Provider.MPESA_C2B,
            purpose=Payment.Purpose.PLEDGE_PAYMENT,
            status=Payment.Status.SUCCEEDED,
            amount=3000,
            campaign=campaign,
            account_reference="ZZZZZZZ",
        ),
        manual_payment=payment_record_manual(
            recorded_by=organizer,
            provider=Payment.Provider.CASH,
            purpose=Payment.Purpose.DONATION,
            amount=500,
            campaign=campaign,
        ),
        cancelled_pledge=PledgeFactory.create(campaign=campaign, cancelled_at=timezone.now()),
        grant=GrantFactory.create(),
        team_member=team_member,
        change_request=change_request,
        invitation=invitation_for(campaign.organization, email="invited@example.com"),
        embed_origin=EmbedOrigin.objects.create(organization=campaign.organization, origin="https://church.example"),
        collection_account=connected_account(campaign.organization),
        event=world_event,
        # Of another campaign of the organization: a campaign runs one event at a time.
        open_event=open_event(CampaignFactory.create(organizer=organizer)),
        bank_account=CollectionAccountFactory.create(
            organization=campaign.organization,
            kind=CollectionAccountKind.BANK,
            paybill_number="",
            bank_name="KCB",
            account_name="Church",
            account_number="1180012345",
            is_default=False,
        ),
        statement_account=statement_account,
        statement_import=statement_uploaded(organizer, statement_account),
        confirmed_import=statement_import_confirm(
            user=organizer,
            organization_id=campaign.organization_id,
            import_id=statement_uploaded(organizer, statement_account, receipt="SLK0000002").pk,
        ),
        closed_event=closed_event_with_cash(campaign, organizer),
        desk_passcode=desk_passcode_issue(user=organizer, event_id=world_event.pk, volunteer="John Kamau")[0],
        airtel_account=(airtel := airtel_account_connected(campaign.organization)),
        airtel_pledge=airtel_pledge_made(organizer, airtel),
        champion=champion_create(
            campaign_id=campaign.pk,
            user=organizer,
            goal=20_000,
            name="Mama Atieno",
            phone="0712000999",
            for_someone_else=True,
        ),
    )


def closed_event_with_cash(campaign: Campaign, organizer: User) -> Event:
    """A closed event of ``campaign`` at whose desk its organizer took Ksh 500 in cash."""
    event = open_event(campaign, title="Harambee night", opened_minutes_ago=180)
    desk_entry_record(
        actor=DeskActor(user=organizer),
        event_id=event.pk,
        idempotency_key="world-cash-500",
        kind="cash",
        amount=500,
        name="",
        phone="",
        is_anonymous=False,
        mpesa_receipt="",
    )
    event.closed_at = timezone.now()
    event.save(update_fields=["closed_at"])
    return event


def cash_counted(world: World, *, signed_off: bool) -> dict[str, Any]:
    """The organizer's cash at the world's closed event counted, and the count signed off if asked."""
    cash_count_record(
        user=world.organizer,
        event_id=world.closed_event.pk,
        usher_key=f"user-{world.organizer.pk}",
        counted=500,
        note="",
    )
    if signed_off:
        cash_reconciliation_sign_off(user=world.organizer, event_id=world.closed_event.pk)
        return {"json": {"reason": "An envelope was found"}}
    return {}


def statement_file(account: CollectionAccount, receipt: str = "SLK0000001") -> SimpleUploadedFile:
    lines = [Line(receipt, timezone.now() - timedelta(days=1), 1500, account_number="ABC")]
    return SimpleUploadedFile("statement.csv", statement_csv(lines, shortcode=account.paybill_number))


def statement_uploaded(user: User, account: CollectionAccount, receipt: str = "SLK0000001") -> StatementImport:
    return statement_import_upload(
        user=user,
        organization_id=account.organization_id,
        account_id=account.pk,
        file=statement_file(account, receipt),
    )


def legacy_bank_account(organization: Organization) -> CollectionAccount:
    """The bank the legacy wizard's request below names: the world's organization has it already (a
    new one would wait for a second owner's approval)."""
    return CollectionAccountFactory.create(
        organization=organization,
        kind="bank",
        paybill_number="",
        bank_name="KCB Bank Kenya Ltd",
        account_name="Neema Family",
        account_number="1100223344",
        is_default=False,
    )


def connected_account(organization: Organization) -> CollectionAccount:
    """A paybill whose Daraja app is connected, with its URLs and Pull Transactions registered."""
    account = CollectionAccountFactory.create(
        organization=organization, is_default=False, mpesa_connected_at=timezone.now()
    )
    MpesaConnection.objects.create(
        account=account,
        consumer_key="church-key",
        consumer_secret="church-secret",
        passkey="church-passkey",
        nominated_number="+254722000111",
        c2b_registered_at=timezone.now(),
        pull_registered_at=timezone.now(),
    )
    return account


def paid_automatically_ready(world: World) -> dict[str, object]:
    """The pledge's plan (equal instalments) and its campaign's paybill with M-Pesa Ratiba enabled:
    what 'Pay automatically with M-Pesa' needs."""
    MpesaConnection.objects.filter(account__campaign_links__campaign=world.campaign).update(ratiba_enabled=True)
    InstalmentPlan.objects.create(
        pledge=world.pledge,
        instalment=2500,
        frequency="weekly",
        first_due_on=timezone.localdate() + timedelta(days=1),
    )
    return {"json": {}}


def pledge_hidden(world: World) -> dict[str, object]:
    """The world's pledge hidden from the big screen, to be shown again."""
    HiddenEntry.objects.create(campaign=world.campaign, pledge=world.pledge)
    return {}


def actor_user(actor: str, world: World) -> User | None:
    if actor == "outsider":
        return UserFactory.create()
    if actor == "admin":
        return UserFactory.create(is_staff=True, is_superuser=True)
    if actor in (Role.TREASURER, Role.USHER, Role.VIEWER):
        member = UserFactory.create()
        Membership.objects.create(organization=world.campaign.organization, user=member, role=actor)
        return member
    return {"visitor": None, "owner": world.organizer, "other_owner": world.other_organizer}[actor]


# Two weekly instalments of the world's pledge (Ksh 5,000), well before its campaign ends.
PLAN = {"instalment": 2500, "frequency": "weekly", "first_due_on": str(timezone.localdate() + timedelta(days=1))}


def spending_waiting(world: World) -> dict[str, object]:
    """A line of the world's campaign recorded by another treasurer, waiting for a second person."""
    recorder = UserFactory.create()
    Membership.objects.create(organization=world.campaign.organization, user=recorder, role=Role.TREASURER)
    line = spending_record(
        user=recorder,
        campaign_id=world.campaign.pk,
        spent_on=timezone.localdate(),
        payee="Kisumu Hardware Ltd",
        payee_kind="organization",
        category="materials",
        amount=4500,
        receipt=receipt_store(file=SimpleUploadedFile("receipt.png", image_bytes(), content_type="image/png")),
        publish_receipt=True,
    )
    return {"record_id": line.pk}


def spending_published(world: World) -> dict[str, object]:
    """A counted line of the world's campaign whose receipt its team published."""
    waiting = spending_waiting(world)
    spending_approve(user=world.organizer, record_id=int(str(waiting["record_id"])))
    return waiting


# Operations on another object than the path's usual one: reversing needs an entry made by hand,
# restoring a cancelled pledge.
OWN_OBJECTS: dict[str, Callable[[World], dict[str, object]]] = {
    "GET /api/spending/{record_id}/receipt": spending_published,
    "POST /api/spending/{record_id}/approval": spending_waiting,
    "POST /api/spending/{record_id}/reversal": spending_waiting,
    "GET /api/giving/s/{token}": lambda w: {"token": statement_link_token(w)},
    "GET /api/orgs/{organization_id}/giving-statements/runs/{run_id}": lambda w: {
        "run_id": StatementRun.objects.create(organization=w.campaign.organization, year=2025).pk
    },
    "POST /api/payments/{reference}/reversal": lambda w: {"reference": w.manual_payment.reference},
    "POST /api/pledges/{pledge_id}/restoration": lambda w: {"pledge_id": w.cancelled_pledge.pk},
    "POST /api/events/{event_id}/close": lambda w: {"event_id": w.open_event.pk},
    "DELETE /api/campaigns/{campaign_id}/live/hidden/{kind}/{entry_id}": lambda w: {
        "kind": "pledge",
        "entry_id": w.pledge.pk,
    },
    "POST /api/events/{event_id}/desk-entries": lambda w: {"event_id": w.open_event.pk},
    "GET /api/events/{event_id}/report": lambda w: {"event_id": w.open_event.pk},
    "GET /api/events/{event_id}/report.csv": lambda w: {"event_id": w.open_event.pk},
    "POST /api/events/{event_id}/thanks": lambda w: {"event_id": w.closed_event.pk},
    "PUT /api/events/{event_id}/cash-counts/{usher_key}": lambda w: {"event_id": w.closed_event.pk},
    "POST /api/events/{event_id}/cash-reconciliation/sign-off": lambda w: {"event_id": w.closed_event.pk},
    "POST /api/events/{event_id}/cash-reconciliation/reopen": lambda w: {"event_id": w.closed_event.pk},
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/cards": lambda w: {
        "account_id": w.bank_account.pk
    },
    "POST /api/orgs/{organization_id}/statement-imports/{import_id}/undo": lambda w: {
        "import_id": w.confirmed_import.pk
    },
    "GET /api/orgs/{organization_id}/collection-accounts/{account_id}/airtel": lambda w: {
        "account_id": w.airtel_account.pk
    },
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/airtel": lambda w: {
        "account_id": w.airtel_account.pk
    },
    "POST /api/pledges/{code}/airtel-push": lambda w: {"code": w.airtel_pledge.code},
}


def path_parameters(world: World, operation: str = "") -> dict[str, object]:
    return {
        "campaign_id": world.campaign.pk,
        "draft_id": world.draft.pk,
        "grant_id": world.grant.pk,
        "reference": world.fee_payment.reference,
        "code": world.pledge.code,
        "pledge_id": world.pledge.pk,
        "organization_id": world.campaign.organization_id,
        "membership_id": world.team_member.pk,
        "change_request_id": world.change_request.pk,
        "invitation_id": world.invitation.pk,
        "origin_id": world.embed_origin.pk,
        "account_id": world.collection_account.pk,
        "event_id": world.event.pk,
        "import_id": world.statement_import.pk,
        "passcode_id": world.desk_passcode.pk,
        "usher_key": f"user-{world.organizer.pk}",
        "champion_code": world.champion.code,
        "number": world.champion.card.number,
        **OWN_OBJECTS.get(operation, lambda w: {})(world),
    }


def unsafe_request_path(template: str, world: World, request: dict[str, Any], operation: str = "") -> str:
    """The path of a request that is not a GET, with its query if it has one (a GET sends it as data)."""
    path = template.format(**path_parameters(world, operation))
    return f"{path}?{urlencode(request['query'])}" if "query" in request else path


def invitation_for(organization: Organization, *, email: str) -> Invitation:
    """An invitation to ``email``, as if just sent; its link's token is its address."""
    return Invitation.objects.create(
        organization=organization, role=Role.VIEWER, email=email, token_hash=Invitation.hash_token(email)
    )


def invitation_token_for(world: World, user: User | None) -> str:
    if user is None:
        return "nobody"
    return invitation_for(world.campaign.organization, email=user.email).email


def a_giver_this_year(world: World) -> int:
    """A gift to the world's organization this year (its statements' sample shows it); the year."""
    paid_donation(world.campaign, name="Akinyi", email="akinyi@example.com")
    return timezone.localdate().year


def statement_link_token(world: World) -> str:
    """The token of the link a giver of the world's organization got by SMS with their statement."""
    year = a_giver_this_year(world)
    givers = organization_givers(organization=world.campaign.organization, year=year)
    giver = next(giver for giver in givers if giver.key == "email:akinyi@example.com")
    link = statement_link(organization_id=world.campaign.organization_id, year=year, digest=giver.digest)
    return link.rpartition("/")[2]


def phone_code_sent_to(user: User | None) -> str:
    """A code as if just texted to the user's phone (the real one leaves only by SMS)."""
    code = "246810"
    if user is not None:
        verification = PhoneVerification.objects.create(user=user, phone=user.phone, code_hash="")
        verification.code_hash = PhoneVerification.hash_code(phone=user.phone, code=code, salt=str(verification.pk))
        verification.save()
    return code


def phone_pledge_claimable_by(world: World, user: User | None) -> str:
    """The code of a pledge made by USSD from the user's number, which they have verified."""
    if user is None:
        return "ABC1234"
    user.phone_verified_at = timezone.now()
    user.save(update_fields=["phone_verified_at"])
    return PledgeFactory.create(
        campaign=world.campaign, name="", email="", phone=user.phone, phone_verified=True, user=None
    ).code


def desk_passcode_for(world: World) -> str:
    """A working passcode of the world's scheduled event, as its owner read it out."""
    return desk_passcode_issue(user=world.organizer, event_id=world.event.pk, volunteer="Mary Wambui")[1]


NEW_PASSWORD = "Kesho#Bora2027"
STORY = "Our church in Kisumu needs a new roof before the long rains. " * 4
IN_60_DAYS = (timezone.localdate() + timedelta(days=60)).isoformat()
IN_AN_HOUR = timezone.now() + timedelta(hours=1)
IN_4_HOURS = IN_AN_HOUR + timedelta(hours=3)

# The query and body of each operation that needs one, valid for an actor allowed to make it.
REQUESTS: dict[str, Callable[[World, User | None], dict[str, Any]]] = {
    "POST /api/signup": lambda w, me: {
        "json": {
            "first_name": "Grace",
            "last_name": "Wanjiku",
            "email": "grace.new@example.com",
            "phone": "0712345678",
            "id_number": "31234567",
            "password": DEFAULT_PASSWORD,
            "confirm_password": DEFAULT_PASSWORD,
        }
    },
    "POST /api/auth/signin": lambda w, me: {"json": {"email": w.other_organizer.email, "password": DEFAULT_PASSWORD}},
    "POST /api/auth/password-reset": lambda w, me: {"json": {"email": w.organizer.email}},
    "POST /api/auth/password-reset/confirm": lambda w, me: {
        "json": {
            "uid": urlsafe_base64_encode(force_bytes(w.other_organizer.pk)),
            "token": default_token_generator.make_token(w.other_organizer),
            "password": NEW_PASSWORD,
            "confirm_password": NEW_PASSWORD,
        }
    },
    "PATCH /api/profile": lambda w, me: {
        "json": {"first_name": "Akinyi", "last_name": "Odhiambo", "phone": "0712345678", "avatar_url": ""}
    },
    "POST /api/profile/phone-verification": lambda w, me: {"json": {"phone": "0712345678"}},
    "POST /api/profile/phone-verification/confirm": lambda w, me: {"json": {"code": phone_code_sent_to(me)}},
    "POST /api/my-pledges/claim": lambda w, me: {"json": {"codes": [phone_pledge_claimable_by(w, me)]}},
    "POST /api/profile/password": lambda w, me: {
        "json": {"current_password": DEFAULT_PASSWORD, "new_password": NEW_PASSWORD, "confirm_password": NEW_PASSWORD}
    },
    "PUT /api/auth/language": lambda w, me: {"json": {"language": "sw"}},
    "POST /api/profile/delete": lambda w, me: {"json": {"password": DEFAULT_PASSWORD}},
    "PUT /api/campaigns/{campaign_id}/reminder-settings": lambda w, me: {
        "json": {"enabled": True, "offsets": ["end-3"], "new_pledge_digest": False}
    },
    "POST /api/campaigns": lambda w, me: {
        "json": {
            "title": "Medical bills for Baby Neema",
            "category": "health",
            "goal": 80_000,
            "story": STORY,
            "duration_days": 45,
            "media_type": "youtube",
            "media_url": "https://youtu.be/dQw4w9WgXcQ",
            "bank_name": "KCB Bank Kenya Ltd",
            "account_name": "Neema Family",
            "account_no": "1100223344",
        }
    },
    "PATCH /api/campaigns/{campaign_id}": lambda w, me: {"json": {"title": "A new roof for St. Mark's"}},
    "POST /api/campaigns/{campaign_id}/status": lambda w, me: {"json": {"status": "closed"}},
    "GET /api/campaign-drafts": lambda w, me: {"query": {"tool_type": "pledging"}},
    "POST /api/campaign-drafts": lambda w, me: {"json": {"tool_type": "pledging", "step_data": {}, "current_step": 1}},
    "PUT /api/campaign-drafts/{draft_id}": lambda w, me: {"json": {"current_step": 2}},
    "POST /api/media": lambda w, me: {
        "multipart": {"file": SimpleUploadedFile("cover.png", image_bytes(), content_type="image/png")}
    },
    "POST /api/pledging-campaigns": lambda w, me: {
        "json": {
            "title": "Church Roof",
            "category": "church",
            "goal": 250_000,
            "story": STORY,
            "end_date": IN_60_DAYS,
            "media_type": "youtube",
            "media_url": "https://youtu.be/dQw4w9WgXcQ",
            # The world's organization needs approval for a new account: its owner chooses one it has.
            "collection_accounts": [
                {"account_id": w.collection_account.pk}
                if me == w.organizer
                else {"kind": "till", "till_number": "5123456"}
            ],
        }
    },
    "POST /api/orgs": lambda w, me: {"json": {"name": "St. Mark's Kiambu", "kind": "church"}},
    "POST /api/orgs/{organization_id}/embed-origins": lambda w, me: {"json": {"origin": "https://www.church.example"}},
    "POST /api/orgs/{organization_id}/invitations": lambda w, me: {
        "json": {"phone": "0712345678", "role": "treasurer"}
    },
    "GET /api/invitations": lambda w, me: {"query": {"token": w.invitation.email}},
    "POST /api/invitations/accept": lambda w, me: {"json": {"token": invitation_token_for(w, me)}},
    "PATCH /api/orgs/{organization_id}": lambda w, me: {
        "json": {"town": "Thika", "approved_charity": True, "statement_signatory": "Rev. J. Kamau"}
    },
    "GET /api/my-giving/statement.pdf": lambda w, me: {"query": {"year": timezone.localdate().year}},
    "GET /api/orgs/{organization_id}/giving-statements/preview": lambda w, me: {
        "query": {"year": timezone.localdate().year}
    },
    "GET /api/orgs/{organization_id}/giving-statements/sample.pdf": lambda w, me: {
        "query": {"year": a_giver_this_year(w)}
    },
    "POST /api/orgs/{organization_id}/giving-statements/runs": lambda w, me: {
        "json": {"year": timezone.localdate().year}
    },
    "PUT /api/orgs/{organization_id}/members/{membership_id}": lambda w, me: {"json": {"role": "usher"}},
    "POST /api/orgs/{organization_id}/collection-accounts": lambda w, me: {
        "json": {"kind": "till", "till_number": "5123456", "store_number": "5123400"}
    },
    "PATCH /api/orgs/{organization_id}/collection-accounts/{account_id}": lambda w, me: {
        "json": {"label": "Building fund"}
    },
    "PUT /api/orgs/{organization_id}/account-keywords": lambda w, me: {"json": {"keywords": ["TITHE", "Sadaka"]}},
    "PUT /api/campaigns/{campaign_id}/collection-accounts": lambda w, me: {
        "json": {"account_ids": [w.collection_account.pk]}
    },
    "POST /api/campaigns/{campaign_id}/unmatched-payments/set-aside": lambda w, me: {
        "json": {"references": [w.unmatched_payment.reference]}
    },
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa": lambda w, me: {
        "json": {"consumer_secret": "a-replaced-secret"}
    },
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/airtel": lambda w, me: {
        "json": {"client_secret": "a-replaced-airtel-secret"}
    },
    "POST /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/connect": lambda w, me: {
        "json": {"reregister": True}
    },
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/cards": lambda w, me: {
        "json": {"settlement_bank": "01"}
    },
    "PUT /api/orgs/{organization_id}/collection-accounts/{account_id}/mpesa/ratiba": lambda w, me: {
        "json": {"enabled": True}
    },
    "POST /api/orgs/{organization_id}/statement-imports": lambda w, me: {
        "multipart": {"account_id": w.statement_account.pk, "file": statement_file(w.statement_account, "SLK0000003")}
    },
    "POST /api/orgs/{organization_id}/statement-imports/bank-columns": lambda w, me: {
        "multipart": {
            "account_id": w.bank_account.pk,
            "file": SimpleUploadedFile("kcb.csv", bank_statement_csv([BankLine(timezone.localdate(), 500, "FT1")])),
        }
    },
    "POST /api/orgs/{organization_id}/statement-imports/{import_id}/undo": lambda w, me: {"json": {"reason": "Wrong"}},
    "POST /api/wizard-feedback": lambda w, me: {"json": {"liked": "The steps", "rating": 4}},
    "POST /api/feedback": lambda w, me: {"json": {"message": "Lovely site", "page": "/explore"}},
    "PUT /api/organizations/profile": lambda w, me: {
        "json": {
            "organization_name": "Hope Community Church",
            "mission": "We serve families in Nairobi through schools and the gospel.",
            "focus_areas": "Education, Youth",
            "organization_type": "Church",
            "location": "Nairobi, Kenya",
            "funding_range": "$10,000 - $50,000",
        }
    },
    "PUT /api/grants/{grant_id}/application": lambda w, me: {"json": {"state": "saved", "note": ""}},
    "GET /api/organizations": lambda w, me: {"query": {"action": "payment-status", "user_email": w.organizer.email}},
    "POST /api/payments/stk-push": lambda w, me: {
        "json": {
            "purpose": "campaign_activation",
            "campaign_id": w.pending_campaign.pk,
            "phone": "0708374149",
            "idempotency_key": "activation-0001",
        }
    },
    "POST /api/payments/checkout": lambda w, me: {
        "json": {"purpose": "campaign_activation", "campaign_id": w.pending_campaign.pk, "idempotency_key": "card-0001"}
    },
    "POST /api/campaigns/{campaign_id}/champions": lambda w, me: {"json": {"goal": 10_000, "appeal": "Our roof"}},
    "PATCH /api/campaigns/{campaign_id}/champions/{champion_code}": lambda w, me: {"json": {"goal": 25_000}},
    "POST /api/campaigns/{campaign_id}/champions/{champion_code}/pledges": lambda w, me: {
        "json": {
            "campaign_id": w.campaign.pk,
            "amount": 5000,
            "name": "Mwangi Kariuki",
            "email": "mwangi@example.com",
            "phone": "0708374149",
        }
    },
    "POST /api/campaigns/{campaign_id}/champion-teams": lambda w, me: {"json": {"name": "Choir", "goal": 50_000}},
    "POST /api/campaigns/{campaign_id}/harambee-cards/{number}/return": lambda w, me: {
        "json": {"cash_total": 500, "gifts": [{"kind": "cash", "amount": 300, "name": "Baba Kevin"}]}
    },
    "POST /api/pledges": lambda w, me: {
        "json": {
            "campaign_id": w.campaign.pk,
            "amount": 5000,
            "name": "Mwangi Kariuki",
            "email": "mwangi@example.com",
            "phone": "0708374149",
        }
    },
    "GET /api/pledges": lambda w, me: {"query": {"campaign_id": w.campaign.pk}},
    "POST /api/pledges/{code}/stk-push": lambda w, me: {
        "json": {"phone": "0708374149", "amount": 1000, "idempotency_key": "pay-pledge-0001"}
    },
    "POST /api/pledges/{code}/airtel-push": lambda w, me: {
        "json": {"phone": "0733123456", "amount": 1000, "idempotency_key": "pay-pledge-airtel-0001"}
    },
    "GET /api/pledges/export.csv": lambda w, me: {"query": {"campaign_id": w.campaign.pk}},
    "POST /api/confirm-payment": lambda w, me: {"json": {"pledgeId": w.pledge.pk}},
    "POST /api/pledges/{pledge_id}/payments": lambda w, me: {"json": {"amount": 2000, "method": "cash"}},
    "POST /api/pledges/{pledge_id}/assign-payment": lambda w, me: {
        "json": {"reference": w.unmatched_payment.reference}
    },
    "POST /api/pledges/{pledge_id}/correction": lambda w, me: {"json": {"amount": 8000, "reason": "Typo"}},
    "PUT /api/pledges/{code}/plan": lambda w, me: {"json": PLAN},
    "POST /api/pledges/{code}/standing-order": lambda w, me: paid_automatically_ready(w),
    "PUT /api/pledges/{pledge_id}/instalment-plan": lambda w, me: {"json": PLAN},
    "POST /api/pledges/{pledge_id}/cancellation": lambda w, me: {"json": {"reason": "Duplicate"}},
    "POST /api/pledges/{pledge_id}/restoration": lambda w, me: {"json": {"reason": "Not a duplicate"}},
    "POST /api/payments/{reference}/reversal": lambda w, me: {"json": {"reason": "Entered twice"}},
    "POST /api/donations": lambda w, me: {
        "json": {
            "campaign_id": w.campaign.pk,
            "amount": 500,
            "name": "Achieng",
            "email": "achieng@example.com",
            "phone": "0708374149",
            "method": "mpesa",
            "idempotency_key": "donation-0001",
        }
    },
    "GET /api/donations": lambda w, me: {"query": {"campaign_id": w.campaign.pk}},
    "GET /api/donations/export.csv": lambda w, me: {"query": {"campaign_id": w.campaign.pk}},
    "GET /api/notifications/opt-out": lambda w, me: {"query": {"token": opt_out_token(w.pledge)}},
    "POST /api/notifications/opt-out": lambda w, me: {"query": {"token": opt_out_token(w.pledge)}},
    "POST /api/campaigns/{campaign_id}/events": lambda w, me: {
        "json": {"title": "Harambee Sunday", "starts_at": IN_AN_HOUR.isoformat(), "ends_at": IN_4_HOURS.isoformat()}
    },
    "POST /api/campaigns/{campaign_id}/live/hidden": lambda w, me: {"json": {"kind": "pledge", "id": w.pledge.pk}},
    "DELETE /api/campaigns/{campaign_id}/live/hidden/{kind}/{entry_id}": lambda w, me: pledge_hidden(w),
    "POST /api/events/{event_id}/desk-entries": lambda w, me: {
        "json": {"idempotency_key": f"desk-entry-{me.pk if me else 0}", "kind": "cash", "amount": 500}
    },
    "POST /api/events/{event_id}/desk-passcodes": lambda w, me: {"json": {"volunteer": "Mary Wambui"}},
    "POST /api/desk/sign-in": lambda w, me: {"json": {"passcode": desk_passcode_for(w)}},
    "POST /api/events/{event_id}/thanks": lambda w, me: {"json": {"text": "Asante sana!"}},
    "PUT /api/events/{event_id}/cash-counts/{usher_key}": lambda w, me: {"json": {"counted": 450, "note": "Short"}},
    "POST /api/events/{event_id}/cash-reconciliation/sign-off": lambda w, me: cash_counted(w, signed_off=False),
    "POST /api/events/{event_id}/cash-reconciliation/reopen": lambda w, me: cash_counted(w, signed_off=True),
    "POST /api/campaigns/{campaign_id}/spending": lambda w, me: {
        "multipart": {
            "spent_on": str(timezone.localdate()),
            "payee": "Kisumu Hardware Ltd",
            "payee_kind": "organization",
            "category": "materials",
            "amount": 4500,
        }
    },
    "POST /api/spending/{record_id}/reversal": lambda w, me: {"json": {"reason": "Entered twice"}},
    "POST /api/campaigns/{campaign_id}/progress-updates": lambda w, me: {"json": {"text": "The roof is on!"}},
}


def schema_operations() -> set[str]:
    schema = api.get_openapi_schema()
    return {f"{method.upper()} {path}" for path, operations in schema["paths"].items() for method in operations}


def test_every_operation_of_the_schema_has_a_row():
    operations = schema_operations()

    assert sorted(operations - MATRIX.keys()) == [], "add a row to MATRIX for each new operation"
    assert sorted(MATRIX.keys() - operations) == [], "these rows name operations the API no longer has"
    assert REQUESTS.keys() <= MATRIX.keys()


def request_made(client: Any, operation: str, world: World, me: User | None) -> Any:
    """``operation`` requested by ``client`` (signed in as ``me``), as the React app makes it."""
    method, template = operation.split(" ", 1)
    request = REQUESTS.get(operation, lambda w, me: {})(world, me)
    path = template.format(**path_parameters(world, operation))
    if "multipart" in request:
        return client.post(path, request["multipart"], content_type=MULTIPART_CONTENT)
    if method == "GET":
        return client.get(path, request.get("query"))
    path = unsafe_request_path(template, world, request, operation)
    return getattr(client, method.lower())(path, request.get("json", {}), content_type="application/json")


@pytest.mark.parametrize("operation", sorted(MATRIX))
@pytest.mark.parametrize("actor", ACTORS)
def test_each_actor_gets_the_expected_status(operation, actor, world, make_api_client):
    me = actor_user(actor, world)

    response = request_made(make_api_client(signed_in_as=me), operation, world, me)

    expected = MATRIX[operation][ACTORS.index(actor)]
    assert response.status_code == expected, response.content[:500]


@pytest.mark.parametrize("operation", sorted(MATRIX))
def test_a_desk_passcode_gets_what_a_visitor_gets_but_at_the_desk(operation, world, make_api_client):
    client = make_api_client()
    passcode = desk_passcode_issue(user=world.organizer, event_id=world.open_event.pk, volunteer="Akinyi")[1]
    assert client.post("/api/desk/sign-in", {"passcode": passcode}).status_code == 200

    response = request_made(client, operation, world, None)

    expected = PASSCODE_DIFFERS_FROM_VISITOR.get(operation, MATRIX[operation][ACTORS.index("visitor")])
    assert response.status_code == expected, response.content[:500]
