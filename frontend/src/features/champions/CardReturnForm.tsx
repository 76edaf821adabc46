import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { outlineButton, primaryButton } from "@/components/buttonStyles";
import { SelectField } from "@/components/FieldControls";
import { TextField } from "@/components/TextField";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { useReturnCard } from "./api";
import { type CardLine, cardReturnRequest, emptyLine } from "./cardLines";

/** A harambee card brought back: its number, the cash in its envelope, the M-Pesa total written on it
 * and the gifts written on it (pledges, cash, M-Pesa), counted for its champion once. */
export function CardReturnForm({ campaignId }: { campaignId: number }) {
  const { t } = useLingui();
  const [number, setNumber] = useState("");
  const [cash, setCash] = useState("");
  const [mpesa, setMpesa] = useState("");
  const [lines, setLines] = useState<CardLine[]>([emptyLine()]);
  const [invalid, setInvalid] = useState(false);
  const returnCard = useReturnCard(campaignId);
  const change = (index: number, field: keyof CardLine, value: string) =>
    setLines((current) => current.map((line, at) => (at === index ? { ...line, [field]: value } : line)));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = cardReturnRequest(cash, mpesa, lines);
    const cardNumber = Number(number);
    setInvalid(body === null || !Number.isInteger(cardNumber) || cardNumber < 1);
    if (body === null || !Number.isInteger(cardNumber) || cardNumber < 1) return;
    returnCard.mutate(
      { number: cardNumber, body },
      {
        onSuccess: (card) => {
          toast({ title: t`Card ${card.number} recorded.` });
          setNumber("");
          setCash("");
          setMpesa("");
          setLines([emptyLine()]);
        },
      },
    );
  };
  return (
    <form
      noValidate
      aria-label={t`Record a returned harambee card`}
      onSubmit={onSubmit}
      className="space-y-4 rounded-lg border border-slate-200 p-4"
    >
      <h4 className="font-semibold text-slate-900">
        <Trans>Record a returned harambee card</Trans>
      </h4>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label={t`Card number`}
          inputMode="numeric"
          value={number}
          onChange={(event) => setNumber(event.target.value)}
        />
        <TextField
          label={t`Cash in the envelope (Ksh)`}
          inputMode="numeric"
          value={cash}
          onChange={(event) => setCash(event.target.value)}
        />
        <TextField
          label={t`M-Pesa total written on the card (Ksh)`}
          inputMode="numeric"
          value={mpesa}
          onChange={(event) => setMpesa(event.target.value)}
        />
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">
          <Trans>Gifts written on the card</Trans>
        </legend>
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity until sent; only added at the end
          <div key={index} className="grid gap-2 sm:grid-cols-5">
            <SelectField
              label={t`Line ${index + 1}: kind`}
              value={line.kind}
              onChange={(event) => change(index, "kind", event.target.value)}
            >
              <option value="cash">{t`Cash`}</option>
              <option value="mpesa">{t`M-Pesa`}</option>
              <option value="pledge">{t`Pledge`}</option>
            </SelectField>
            <TextField
              label={t`Line ${index + 1}: amount (Ksh)`}
              inputMode="numeric"
              value={line.amount}
              onChange={(event) => change(index, "amount", event.target.value)}
            />
            <TextField
              label={t`Line ${index + 1}: name`}
              value={line.name}
              onChange={(event) => change(index, "name", event.target.value)}
            />
            <TextField
              label={t`Line ${index + 1}: phone`}
              type="tel"
              value={line.phone}
              onChange={(event) => change(index, "phone", event.target.value)}
            />
            {line.kind === "mpesa" && (
              <TextField
                label={t`Line ${index + 1}: M-Pesa code`}
                value={line.receipt}
                onChange={(event) => change(index, "receipt", event.target.value)}
              />
            )}
          </div>
        ))}
        <button
          type="button"
          className={outlineButton}
          onClick={() => setLines((current) => [...current, emptyLine()])}
        >
          <Trans>Add a line</Trans>
        </button>
      </fieldset>
      {(invalid || returnCard.error) && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {invalid
            ? t`Please enter the card's number and whole amounts in Ksh.`
            : errorMessage(returnCard.error)}
        </p>
      )}
      <button type="submit" disabled={returnCard.isPending} className={`${primaryButton} sm:w-auto`}>
        <Trans>Record the card</Trans>
      </button>
    </form>
  );
}
