import { useEffect, useRef, useState } from "preact/hooks";
import { RequestFailed, SessionEnded } from "../api/client.ts";
import { refundCheckout } from "../api/refund-documents.ts";
import { displayAmount } from "../format/amount.ts";
import { amountProblem, isZero, remainingAmount } from "../format/refundable.ts";
import "./refund-checkout.css";

/** A paid checkout as the Checkout links table has it. */
export interface RefundableCheckout {
  readonly paymentId: string;
  readonly amount: string;
  readonly currency: string;
  readonly walletFrom: string;
  readonly refunded: string | null;
}

type Step =
  | { readonly name: "closed" }
  | { readonly name: "form"; readonly problem: string | null }
  | { readonly name: "confirm"; readonly amount: string; readonly key: string; readonly sending: boolean }
  | { readonly name: "done"; readonly text: string };

/** A key per confirmed refund: a second click or a retry is the same refund (Idempotency-Key). */
function newKey(paymentId: string): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `dashboard-refund-${paymentId}-${random}`.slice(0, 255);
}

/**
 * What was refunded of a paid checkout, and its **Refund** action: amount (empty: all that may
 * still be refunded) and reason, then a confirmation naming the amount and the payer's wallet,
 * then `refundCheckout`. In a modal dialog, so the table keeps its layout.
 */
export function RefundAction({
  checkout,
  onRefunded,
  onSessionEnded,
}: {
  checkout: RefundableCheckout;
  onRefunded(): void;
  onSessionEnded(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<Step>({ name: "closed" });
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const refunded = checkout.refunded ?? "0";
  const remaining = remainingAmount(checkout.amount, refunded);
  const money = (value: string) => displayAmount(value, checkout.currency);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (step.name === "closed" && element.open) element.close();
    if (step.name !== "closed" && !element.open) element.showModal();
  }, [step.name]);

  const close = () => {
    if (step.name === "done") onRefunded();
    setStep({ name: "closed" });
  };
  const review = (event: Event) => {
    event.preventDefault();
    const asked = amount.trim() === "" ? remaining : amount.trim();
    const problem = amountProblem(asked, remaining);
    if (problem) return setStep({ name: "form", problem });
    setStep({ name: "confirm", amount: asked, key: newKey(checkout.paymentId), sending: false });
  };
  const confirm = async () => {
    if (step.name !== "confirm" || step.sending) return;
    setStep({ ...step, sending: true });
    try {
      const outcome = await refundCheckout({
        externalId: checkout.paymentId,
        amount: step.amount,
        reason: reason.trim(),
        idempotencyKey: step.key,
      });
      setStep(
        outcome.ok
          ? {
              name: "done",
              text: `Refunded ${money(outcome.amount)} to wallet ${checkout.walletFrom}. ${money(outcome.refundable)} may still be refunded.`,
            }
          : { name: "form", problem: outcome.message },
      );
    } catch (error) {
      if (error instanceof SessionEnded) return onSessionEnded();
      setStep({
        name: "form",
        problem: error instanceof RequestFailed ? error.message : "Something went wrong. Try again.",
      });
    }
  };

  const title = `refund-title-${checkout.paymentId}`;
  return (
    <>
      {isZero(refunded) ? null : <span class="refunded">Refunded {money(refunded)}</span>}
      {isZero(remaining) ? null : (
        <button
          type="button"
          class="secondary refund-open"
          aria-label={`Refund ${checkout.paymentId}`}
          onClick={() => {
            setAmount("");
            setReason("");
            setStep({ name: "form", problem: null });
          }}
        >
          Refund
        </button>
      )}
      <dialog
        ref={dialog}
        class="refund-dialog"
        aria-labelledby={title}
        onClose={() => step.name !== "closed" && close()}
      >
        <h2 id={title}>Refund order {checkout.paymentId}</h2>
        <p class="muted">
          Paid {money(checkout.amount)} from wallet {checkout.walletFrom}; {money(remaining)} may still be
          refunded.
        </p>
        {step.name === "form" ? (
          <form onSubmit={review} noValidate>
            <label>
              Amount
              <input
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                maxLength={40}
                placeholder={`${remaining} (all that remains)`}
                value={amount}
                onInput={(event) => setAmount(event.currentTarget.value)}
              />
            </label>
            <label>
              Reason
              <input
                name="reason"
                maxLength={255}
                autoComplete="off"
                value={reason}
                onInput={(event) => setReason(event.currentTarget.value)}
              />
            </label>
            {step.problem ? <p role="alert">{step.problem}</p> : null}
            <div class="refund-buttons">
              <button type="submit">Review refund</button>
              <button type="button" class="secondary" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        ) : null}
        {step.name === "confirm" ? (
          <div>
            <p class="refund-confirm">
              Refund <strong>{money(step.amount)}</strong> to the payer's wallet{" "}
              <strong class="mono">{checkout.walletFrom}</strong>? The money leaves your wallet now; the
              commission is not returned.
            </p>
            <div class="refund-buttons">
              <button type="button" onClick={confirm} disabled={step.sending}>
                Confirm refund
              </button>
              <button
                type="button"
                class="secondary"
                onClick={() => setStep({ name: "form", problem: null })}
              >
                Back
              </button>
            </div>
          </div>
        ) : null}
        {step.name === "done" ? (
          <div>
            <p role="status">{step.text}</p>
            <div class="refund-buttons">
              <button type="button" onClick={close}>
                Close
              </button>
            </div>
          </div>
        ) : null}
      </dialog>
    </>
  );
}
