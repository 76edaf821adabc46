import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/test/render";
import { http, server } from "@/test/server";
import type { CollectionAccount, StatementImport, StatementRow } from "./api";
import { StatementImports } from "./StatementImportPage";

const IMPORTS = "/api/orgs/{organization_id}/statement-imports";
const PAYBILL: CollectionAccount = {
  id: 4,
  kind: "paybill",
  label: "",
  paybill_number: "600100",
  account_number: "",
  till_number: "",
  store_number: "",
  bank_name: "",
  bank_branch: "",
  account_name: "",
  location: "",
  is_default: true,
  mpesa_connected_at: null,
  offers_stk_push: false,
  takes_cards: false,
  card_settlement_bank: "",
  merchant_msisdn: "",
  airtel_connected_at: null,
  offers_airtel_push: false,
};
const row = {
  receipt: "SLK0000001",
  completed_at: "2026-11-20T10:30:00+03:00",
  payer: "JOHN DOE",
  pledge_code: "",
  campaign_title: "",
  near_codes: [] as string[],
  beyond_pledge: 0,
  details: "Pay Bill from 254712***126 - JOHN DOE",
};
const MATCHED: StatementRow = {
  ...row,
  line: 6,
  amount: 4000,
  account_number: "4kq7m2x",
  category: "matched",
  pledge_code: "4KQ7M2X",
  campaign_title: "Church Roof",
};
const PREVIEW: StatementImport = {
  id: 9,
  status: "previewed",
  file_name: "november.csv",
  account_id: 4,
  account_label: "600100",
  account_kind: "paybill",
  created_at: "2026-11-26T06:00:00+03:00",
  confirmed_at: null,
  undone_at: null,
  undo_reason: "",
  receipts_sent: false,
  figures: {
    matched: { rows: 1, total: 4000 },
    recorded: { rows: 0, total: 0 },
    keyword: { rows: 0, total: 0 },
    unmatched: { rows: 1, total: 700 },
    ignored: { rows: 0, total: 0 },
  },
  rows: [
    MATCHED,
    {
      ...row,
      line: 7,
      receipt: "SLK0000002",
      amount: 700,
      account_number: "4KZ7M2X",
      category: "unmatched",
      near_codes: ["4KQ7M2X"],
    },
  ],
};

const BANK: CollectionAccount = {
  ...PAYBILL,
  id: 5,
  kind: "bank",
  paybill_number: "",
  bank_name: "KCB",
  account_name: "St. Mark's",
  account_number: "1100223344",
  is_default: false,
};

function renderImports() {
  server.use(
    http.get("/api/orgs/{organization_id}/collection-accounts", ({ response }) =>
      response(200).json([PAYBILL, BANK]),
    ),
    http.get(IMPORTS, ({ response }) => response(200).json([])),
  );
  return renderWithProviders(<StatementImports organizationId={3} />);
}

describe("StatementImportPage", () => {
  it("says which line of a refused file is wrong", async () => {
    server.use(
      http.post(IMPORTS, ({ response }) =>
        response(422).json({
          detail: "Line 7: A cell holds a formula",
          code: "statement_invalid",
          field_errors: { file: "Line 7: A cell holds a formula" },
        }),
      ),
    );
    const { user } = renderImports();

    await user.upload(
      await screen.findByLabelText("Statement file"),
      new File(["x"], "bad.csv", { type: "text/csv" }),
    );
    await user.click(screen.getByRole("button", { name: "Preview" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Line 7: A cell holds a formula");
    expect(screen.getByLabelText("Statement file")).toHaveAttribute("aria-invalid", "true");
  });

  it("previews what each row will do and confirms with or without receipts for older money", async () => {
    const confirmed: unknown[] = [];
    server.use(
      http.post(IMPORTS, ({ response }) => response(201).json(PREVIEW)),
      http.post(`${IMPORTS}/{import_id}/confirm`, async ({ request, response }) => {
        confirmed.push(await request.json());
        return response(200).json({ ...PREVIEW, status: "confirmed", rows: [] });
      }),
    );
    const { user } = renderImports();

    await user.upload(await screen.findByLabelText("Statement file"), new File(["csv"], "november.csv"));
    await user.click(screen.getByRole("button", { name: "Preview" }));

    const preview = await screen.findByRole("region", { name: "Preview: november.csv" });
    expect(within(preview).getByRole("row", { name: /^Matched to a pledge 1 Ksh 4,000/ })).toBeVisible();
    expect(within(preview).getByText("Pledge 4KQ7M2X (Church Roof)")).toBeVisible();
    expect(within(preview).getByText("Unmatched: perhaps 4KQ7M2X")).toBeVisible();
    // When M-Pesa completed it, on Kenya's clock whatever zone the device is in.
    expect(within(preview).getAllByText("Nov 20, 2026, 10:30 AM")[0]).toBeVisible();
    await user.click(within(preview).getByLabelText("Send receipts for payments older than 3 days too"));
    await user.click(within(preview).getByRole("button", { name: "Confirm import" }));

    expect(await screen.findByRole("button", { name: "Preview" })).toBeVisible();
    expect(confirmed).toEqual([{ send_receipts: true }]);
  });

  it("warns of a matched row that would pay its pledge beyond its amount", async () => {
    const beyond = { ...PREVIEW, rows: [{ ...MATCHED, beyond_pledge: 1500 }] };
    server.use(http.post(IMPORTS, ({ response }) => response(201).json(beyond)));
    const { user } = renderImports();

    await user.upload(await screen.findByLabelText("Statement file"), new File(["csv"], "november.csv"));
    await user.click(screen.getByRole("button", { name: "Preview" }));

    const preview = await screen.findByRole("region", { name: "Preview: november.csv" });
    expect(within(preview).getByText("Pays Ksh 1,500 beyond the pledge's amount")).toBeVisible();
  });

  it("reads a bank statement through the columns chosen, the account's last choice selected", async () => {
    const uploaded: [string, FormDataEntryValue][][] = [];
    server.use(
      http.post(`${IMPORTS}/bank-columns`, ({ response }) =>
        response(200).json({
          header: ["Transaction Date", "Narrative", "Transaction Reference", "Debit", "Credit"],
          columns: {
            date: "Transaction Date",
            amount: "Credit",
            debit: "Debit",
            reference: "Transaction Reference",
            description: "Narrative",
          },
          remembered: true,
        }),
      ),
      http.post(IMPORTS, async ({ request, response }) => {
        uploaded.push([...(await request.formData()).entries()]);
        return response(201).json({
          ...PREVIEW,
          file_name: "kcb.csv",
          account_id: 5,
          account_kind: "bank",
          rows: [{ ...MATCHED, receipt: "FT0001", details: "MPESA C2B 4KQ7M2X JOHN DOE" }],
        });
      }),
    );
    const { user } = renderImports();

    await user.selectOptions(await screen.findByLabelText("Statement of"), "KCB 1100223344");
    await user.upload(screen.getByLabelText("Statement file"), new File(["csv"], "kcb.csv"));
    await user.click(screen.getByRole("button", { name: "Choose the columns" }));

    const columns = await screen.findByRole("form", { name: "Columns of kcb.csv" });
    expect(within(columns).getByRole("heading", { name: "Columns of kcb.csv" })).toHaveFocus();
    expect(
      within(columns).getByText(/The columns chosen last time for this account are selected/),
    ).toBeVisible();
    expect(within(columns).getByLabelText("Money in")).toHaveValue("Credit");
    await user.selectOptions(within(columns).getByLabelText("Money out"), "None");
    await user.click(within(columns).getByRole("button", { name: "Preview" }));

    const preview = await screen.findByRole("region", { name: "Preview: kcb.csv" });
    expect(within(preview).getByRole("columnheader", { name: "Reference" })).toBeVisible();
    expect(within(preview).getByText("MPESA C2B 4KQ7M2X JOHN DOE")).toBeVisible();
    expect(within(preview).getAllByText("Nov 20, 2026")[0]).toBeVisible(); // a bank gives the day only
    expect(Object.fromEntries((uploaded[0] ?? []).filter(([name]) => name !== "file"))).toEqual({
      account_id: "5",
      date_column: "Transaction Date",
      amount_column: "Credit",
      debit_column: "",
      reference_column: "Transaction Reference",
      description_column: "Narrative",
    });
  });
});
