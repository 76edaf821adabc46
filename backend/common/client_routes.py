"""The React app's routes, as the server knows them: the app's page answers 404 for any other path
(config/spa.py), and a payment's link back from the checkout leads only to one of them
(payments.services.safe_return_path), as does the sign-in page's ``next`` in the browser, which has this
table as frontend/src/lib/clientRoutes.ts (its test fails when the two differ). Keep CLIENT_ROUTES in step
with frontend/src/App.tsx and OrganizerRoutes.tsx; the end-to-end tests visit every route.
"""

import re

CLIENT_ROUTES = [
    r"",
    r"signin",
    r"signup",
    r"forgot-password",
    r"reset-password",
    r"explore",
    r"how-it-works",
    r"privacy",
    r"campaign/\d+",
    r"campaign/\d+/(?:donate|pledge|edit|poster|spending)",
    r"campaign/\d+/spending/team",
    r"campaign/\d+/analytics",
    r"campaign/\d+/champions/[2-9a-hjkmnp-zA-HJKMNP-Z]{6}",
    r"campaign/\d+/(?:live|events)",
    r"campaign/\d+/events/\d+/report",
    r"campaign/\d+/desk",
    r"campaign/\d+/events/\d+/cash",
    r"edit-campaign/\d+",
    r"pledge/\d+",
    r"pledges/[2-9a-hjkmnp-zA-HJKMNP-Z]{7}",
    r"pledge/create-campaign",
    r"fundraiser-success",
    r"icc-imara-donate",
    r"home",
    r"start-fundraiser",
    r"dashboard",
    r"grantfunding",
    r"grantfunding/sample-grant",
    r"profile",
    r"my-pledges",
    r"my-giving",
    r"organizations",
    r"organizations/\d+",
    r"organizations/\d+/collection-accounts",
    r"invitation",
    r"orgs/\d+/collection-accounts/\d+/mpesa",
    r"orgs/\d+/collection-accounts/\d+/cards",
    r"orgs/\d+/statements",
]
CLIENT_ROUTE_PATTERN = re.compile(r"^/(?:" + "|".join(CLIENT_ROUTES) + r")/?$")
