/** The numeric id in a route segment (`/campaign/14`, `/orgs/3/…`), or null when it is not one, so a
 * mistyped link shows "not found" instead of asking the API for a nonsense path. */
export function parseRouteId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
