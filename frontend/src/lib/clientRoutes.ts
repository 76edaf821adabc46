/**
 * The app's routes, as the server lists them: the same table as CLIENT_ROUTES in
 * backend/common/client_routes.py (clientRoutes.test.ts fails when they differ). The server answers 404
 * for any other path; here a path the app was asked to go to (the sign-in's `next`) is one of them or
 * is not followed.
 */
export const CLIENT_ROUTES = [
  "",
  "signin",
  "signup",
  "forgot-password",
  "reset-password",
  "explore",
  "how-it-works",
  "privacy",
  "campaign/\\d+",
  "campaign/\\d+/(?:donate|pledge|edit|poster|spending)",
  "campaign/\\d+/spending/team",
  "campaign/\\d+/analytics",
  "campaign/\\d+/champions/[2-9a-hjkmnp-zA-HJKMNP-Z]{6}",
  "campaign/\\d+/(?:live|events)",
  "campaign/\\d+/events/\\d+/report",
  "campaign/\\d+/desk",
  "campaign/\\d+/events/\\d+/cash",
  "edit-campaign/\\d+",
  "pledge/\\d+",
  "pledges/[2-9a-hjkmnp-zA-HJKMNP-Z]{7}",
  "pledge/create-campaign",
  "fundraiser-success",
  "icc-imara-donate",
  "home",
  "start-fundraiser",
  "dashboard",
  "grantfunding",
  "grantfunding/sample-grant",
  "profile",
  "my-pledges",
  "my-giving",
  "organizations",
  "organizations/\\d+",
  "organizations/\\d+/collection-accounts",
  "invitation",
  "orgs/\\d+/collection-accounts/\\d+/mpesa",
  "orgs/\\d+/collection-accounts/\\d+/cards",
  "orgs/\\d+/statements",
];

const CLIENT_ROUTE_PATTERN = new RegExp(`^/(?:${CLIENT_ROUTES.join("|")})/?$`);

/** Is this path (no query) one of the app's pages? */
export function isClientRoute(path: string): boolean {
  return CLIENT_ROUTE_PATTERN.test(path);
}
