import { msg } from "@lingui/core/macro";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError, api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

// The organizations' requests: the user's organizations, one organization's team, invitations and
// the changes waiting for a second person (the two-person rule), and accepting an invitation.

export type Organization = Schemas["OrganizationOut"];
export type Member = Schemas["MemberOut"];
export type ChangeRequest = Schemas["ChangeRequestOut"];
export type Invitation = Schemas["InvitationOut"];
export type Role = Schemas["Role"];
export type EmbedOrigin = Schemas["EmbedOriginOut"];

export const organizationKeys = {
  all: ["organizations"] as const,
  list: () => ["organizations", "list"] as const,
  one: (id: number) => ["organizations", id] as const,
  members: (id: number) => ["organizations", id, "members"] as const,
  approvals: (id: number) => ["organizations", id, "approvals"] as const,
  invitations: (id: number) => ["organizations", id, "invitations"] as const,
  accounts: (id: number) => ["organizations", id, "collection-accounts"] as const,
  keywords: (id: number) => ["organizations", id, "account-keywords"] as const,
  invitation: (token: string) => ["invitations", token] as const,
  embedOrigins: (id: number) => ["organizations", id, "embed-origins"] as const,
};

/** An answer without a body (204) or with one: the error as an ApiRequestError. */
function settled<T>(result: { data?: T; error?: unknown; response: Response }): T | null {
  if (result.error !== undefined) return unwrap(result);
  return result.data ?? null;
}

/** A 202 answer: the change waits for another owner's or treasurer's approval. */
export function isWaiting(answer: unknown): answer is ChangeRequest {
  return typeof answer === "object" && answer !== null && "can_approve" in answer;
}

export function useOrganizations() {
  return useQuery({
    queryKey: organizationKeys.list(),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/api/orgs", { signal }), i18n._(msg`Could not load your organizations.`)),
  });
}

export function useOrganization(id: number) {
  return useQuery({
    queryKey: organizationKeys.one(id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}", { params: { path: { organization_id: id } }, signal }),
      ),
  });
}

export type OrganizationDetails = Schemas["OrganizationIn"];

/** A new organization, the user its first owner ("Create your organization"). */
export function useOrganizationCreate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: OrganizationDetails) => unwrap(await api.POST("/api/orgs", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

/** New details (owners): the organization, or the pending rename under the two-person rule (202). */
export function useOrganizationUpdate(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Schemas["OrganizationPatchIn"]) =>
      unwrap(
        await api.PATCH("/api/orgs/{organization_id}", { params: { path: { organization_id: id } }, body }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

export function useTeam(id: number) {
  return useQuery({
    queryKey: organizationKeys.members(id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/members", {
          params: { path: { organization_id: id } },
          signal,
        }),
      ),
  });
}

export function useApprovals(id: number) {
  return useQuery({
    queryKey: organizationKeys.approvals(id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/approvals", {
          params: { path: { organization_id: id } },
          signal,
        }),
      ),
  });
}

export function useInvitations(id: number, enabled: boolean) {
  return useQuery({
    queryKey: organizationKeys.invitations(id),
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/invitations", {
          params: { path: { organization_id: id } },
          signal,
        }),
      ),
  });
}

/** Every change to the team or to where the money is paid may move the organization's lists and
 * its approvals at once. */
function useTeamMutation<TVariables, TAnswer>(
  id: number,
  mutationFn: (variables: TVariables) => Promise<TAnswer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.one(id) }),
  });
}

export function useRoleChange(id: number) {
  return useTeamMutation(id, async ({ membershipId, role }: { membershipId: number; role: Role }) =>
    unwrap(
      await api.PUT("/api/orgs/{organization_id}/members/{membership_id}", {
        params: { path: { organization_id: id, membership_id: membershipId } },
        body: { role },
      }),
    ),
  );
}

/** Removes a member, or the user themself ("Leave the team"). Once the user has left, the organization's
 * pages answer 404: `onLeft` moves them elsewhere first, then the organization is forgotten, not
 * refetched (here in the hook, since the page's own callbacks no longer run once it has unmounted). */
export function useMemberRemove(id: number, onLeft: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (member: Member) =>
      settled(
        await api.DELETE("/api/orgs/{organization_id}/members/{membership_id}", {
          params: { path: { organization_id: id, membership_id: member.id } },
        }),
      ),
    onSettled: (answer, error, member) => {
      if (!error && member.is_me && !isWaiting(answer)) {
        onLeft();
        queryClient.removeQueries({ queryKey: organizationKeys.one(id) });
        return queryClient.invalidateQueries({ queryKey: organizationKeys.list() });
      }
      return queryClient.invalidateQueries({ queryKey: organizationKeys.one(id) });
    },
  });
}

export function useApprovalDecision(id: number) {
  return useTeamMutation(
    id,
    async ({ requestId, action }: { requestId: number; action: "approve" | "withdraw" }) => {
      const params = { params: { path: { organization_id: id, change_request_id: requestId } } };
      return unwrap(
        action === "approve"
          ? await api.POST("/api/orgs/{organization_id}/approvals/{change_request_id}/approve", params)
          : await api.POST("/api/orgs/{organization_id}/approvals/{change_request_id}/withdraw", params),
      );
    },
  );
}

export function useInvite(id: number) {
  return useTeamMutation(id, async (body: Schemas["InvitationIn"]) =>
    unwrap(
      await api.POST("/api/orgs/{organization_id}/invitations", {
        params: { path: { organization_id: id } },
        body,
      }),
    ),
  );
}

export function useInvitationRevoke(id: number) {
  return useTeamMutation(id, async (invitationId: number) =>
    settled(
      await api.DELETE("/api/orgs/{organization_id}/invitations/{invitation_id}", {
        params: { path: { organization_id: id, invitation_id: invitationId } },
      }),
    ),
  );
}

/** What an invitation link offers, for whoever holds it (signed in or not). */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: organizationKeys.invitation(token),
    enabled: token !== "",
    retry: (count, error) => !(error instanceof ApiRequestError && error.status === 404) && count < 2,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/api/invitations", { params: { query: { token } }, signal })),
  });
}

export function useInvitationAccept() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) =>
      unwrap(await api.POST("/api/invitations/accept", { body: { token } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

// Where the organization's money is paid: its collection accounts and the account-number keywords
// that are not for Harambee. Adding, changing or removing an account may wait for a second owner's or
// treasurer's approval (answered 202 with the ChangeRequest): the mutations refresh the approvals too.

export type CollectionAccount = Schemas["CollectionAccountOut"];
export type CollectionAccountIn = Schemas["CollectionAccountIn"];

const accountPath = (id: number, accountId: number) => ({
  params: { path: { organization_id: id, account_id: accountId } },
});

export const collectionAccountsOptions = (id: number) =>
  queryOptions({
    queryKey: organizationKeys.accounts(id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/collection-accounts", {
          params: { path: { organization_id: id } },
          signal,
        }),
      ),
  });

export function useCollectionAccounts(id: number) {
  return useQuery(collectionAccountsOptions(id));
}

export function useAccountAdd(id: number) {
  return useTeamMutation(id, async (body: CollectionAccountIn) =>
    unwrap(
      await api.POST("/api/orgs/{organization_id}/collection-accounts", {
        params: { path: { organization_id: id } },
        body,
      }),
    ),
  );
}

export function useAccountUpdate(id: number) {
  return useTeamMutation(
    id,
    async ({ accountId, body }: { accountId: number; body: Schemas["CollectionAccountPatchIn"] }) =>
      unwrap(
        await api.PATCH("/api/orgs/{organization_id}/collection-accounts/{account_id}", {
          ...accountPath(id, accountId),
          body,
        }),
      ),
  );
}

export function useAccountRemove(id: number) {
  return useTeamMutation(id, async (accountId: number) =>
    settled(
      await api.DELETE(
        "/api/orgs/{organization_id}/collection-accounts/{account_id}",
        accountPath(id, accountId),
      ),
    ),
  );
}

export function useAccountKeywords(id: number) {
  return useQuery({
    queryKey: organizationKeys.keywords(id),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/account-keywords", {
          params: { path: { organization_id: id } },
          signal,
        }),
      ),
  });
}

export function useAccountKeywordsSet(id: number) {
  return useTeamMutation(id, async (keywords: string[]) =>
    unwrap(
      await api.PUT("/api/orgs/{organization_id}/account-keywords", {
        params: { path: { organization_id: id } },
        body: { keywords },
      }),
    ),
  );
}

/** The websites that may show the organization's campaigns in a frame (config/embed.py): the team sees
 * them, owners add and remove them. */
export function useEmbedOrigins(id: number, enabled = true) {
  return useQuery({
    queryKey: organizationKeys.embedOrigins(id),
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/embed-origins", {
          params: { path: { organization_id: id } },
          signal,
        }),
      ),
  });
}

export function useEmbedOriginAdd(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (origin: string) =>
      unwrap(
        await api.POST("/api/orgs/{organization_id}/embed-origins", {
          params: { path: { organization_id: id } },
          body: { origin },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.embedOrigins(id) }),
  });
}

export function useEmbedOriginRemove(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (originId: number) =>
      settled(
        await api.DELETE("/api/orgs/{organization_id}/embed-origins/{origin_id}", {
          params: { path: { organization_id: id, origin_id: originId } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: organizationKeys.embedOrigins(id) }),
  });
}
