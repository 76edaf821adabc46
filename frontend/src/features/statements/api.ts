import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";

export type StatementImport = Schemas["StatementImportOut"];
export type StatementRow = Schemas["StatementRowOut"];
export type Category = StatementRow["category"];
export type CollectionAccount = Schemas["CollectionAccountOut"];
export type BankColumns = Schemas["BankColumnsSchema"];
export type BankColumnsChoice = Schemas["BankColumnsChoiceOut"];

/** Accounts whose money reaches us on the bank's statement, read through columns the treasurer chooses. */
export const BANK_KINDS: readonly CollectionAccount["kind"][] = ["bank", "paybill_fixed_account"];
const STATEMENT_KINDS: readonly CollectionAccount["kind"][] = ["paybill", "till", ...BANK_KINDS];

export const statementKeys = {
  all: ["statements"] as const,
  imports: (organizationId: number) => ["statements", "imports", organizationId] as const,
  accounts: (organizationId: number) => ["statements", "accounts", organizationId] as const,
};

const orgPath = (organizationId: number) => ({ params: { path: { organization_id: organizationId } } });
const importPath = (organizationId: number, importId: number) => ({
  params: { path: { organization_id: organizationId, import_id: importId } },
});

/** The organization's M-Pesa paybills and tills and its bank accounts: the accounts a statement can be of. */
export function useStatementAccounts(organizationId: number) {
  return useQuery({
    queryKey: statementKeys.accounts(organizationId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/orgs/{organization_id}/collection-accounts", {
          ...orgPath(organizationId),
          signal,
        }),
      ).filter((account) => STATEMENT_KINDS.includes(account.kind)),
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

function statementForm(accountId: number, file: File): FormData {
  const body = new FormData();
  body.append("account_id", String(accountId));
  body.append("file", file);
  return body;
}

/** A bank statement's column names, with the account's remembered choice (or a guess) to start from. */
export function useBankColumns(organizationId: number) {
  return useMutation({
    mutationFn: async ({ accountId, file }: { accountId: number; file: File }) =>
      unwrap(
        await api.POST("/api/orgs/{organization_id}/statement-imports/bank-columns", {
          ...orgPath(organizationId),
          // openapi-fetch sends FormData as it is; the generated type only knows the fields' names.
          body: statementForm(accountId, file) as unknown as { account_id: number; file: string },
        }),
      ),
  });
}

/** Uploads a statement (a bank's with its columns); the answer is its preview (nothing is credited yet). */
export function useStatementUpload(organizationId: number) {
  return useMutation({
    mutationFn: async ({
      accountId,
      file,
      columns,
    }: {
      accountId: number;
      file: File;
      columns?: BankColumns;
    }) => {
      const body = statementForm(accountId, file);
      if (columns) {
        for (const [name, value] of Object.entries(columns)) body.append(`${name}_column`, value ?? "");
      }
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
