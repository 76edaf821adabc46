import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type StatementImport = Schemas["StatementImportOut"];
export type StatementRow = Schemas["StatementRowOut"];
export type Category = StatementRow["category"];
export type CollectionAccount = Schemas["CollectionAccountOut"];

export const statementKeys = {
  all: ["statements"] as const,
  imports: (organizationId: number) => ["statements", "imports", organizationId] as const,
  accounts: (organizationId: number) => ["statements", "accounts", organizationId] as const,
};

const orgPath = (organizationId: number) => ({ params: { path: { organization_id: organizationId } } });
const importPath = (organizationId: number, importId: number) => ({
  params: { path: { organization_id: organizationId, import_id: importId } },
});

/** The organization's M-Pesa paybills and tills: the accounts a statement can be of. */
export function useStatementAccounts(organizationId: number) {
  return useQuery({
    queryKey: statementKeys.accounts(organizationId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/collection-accounts", {
          ...orgPath(organizationId),
          signal,
        }),
      ).filter((account) => account.kind === "paybill" || account.kind === "till"),
  });
}

/** The last imports, newest first. */
export function useStatementImports(organizationId: number) {
  return useQuery({
    queryKey: statementKeys.imports(organizationId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/statement-imports", {
          ...orgPath(organizationId),
          signal,
        }),
      ),
  });
}

/** Uploads a statement; the answer is its preview (nothing is credited yet). */
export function useStatementUpload(organizationId: number) {
  return useMutation({
    mutationFn: async ({ accountId, file }: { accountId: number; file: File }) => {
      const body = new FormData();
      body.append("account_id", String(accountId));
      body.append("file", file);
      // openapi-fetch sends FormData as it is; the generated type only knows the fields' names.
      return unwrap(
        await api.POST("/api/orgs/{organization_id}/statement-imports", {
          ...orgPath(organizationId),
          body: body as unknown as { account_id: number; file: string },
        }),
      );
    },
  });
}

function useImportAction<Body>(send: (body: Body) => Promise<StatementImport>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    // Money moved: the imports, and every pledge figure and unmatched list, are read again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Confirm: the matched rows are credited, the unmatched ones wait in "Unmatched payments". */
export function useStatementConfirm(organizationId: number) {
  return useImportAction(async ({ importId, sendReceipts }: { importId: number; sendReceipts: boolean }) =>
    unwrap(
      await api.POST("/api/orgs/{organization_id}/statement-imports/{import_id}/confirm", {
        ...importPath(organizationId, importId),
        body: { send_receipts: sendReceipts },
      }),
    ),
  );
}

/** Undo a whole import, with a reason: every payment it recorded is reversed. */
export function useStatementUndo(organizationId: number) {
  return useImportAction(async ({ importId, reason }: { importId: number; reason: string }) =>
    unwrap(
      await api.POST("/api/orgs/{organization_id}/statement-imports/{import_id}/undo", {
        ...importPath(organizationId, importId),
        body: { reason },
      }),
    ),
  );
}
