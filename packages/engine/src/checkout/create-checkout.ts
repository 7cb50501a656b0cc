import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { optionalWebUrl } from "../input/web-url.ts";
import { checkoutLinkBinding, formTokenBinding } from "../keys/sealed-columns.ts";
import { inMode } from "../mode/data-mode.ts";
import { clockedFor } from "../mode/test-clock.ts";
import { amountInMinorUnits } from "../money/index.ts";
import { formatTimestamp } from "../output/timestamps.ts";
import { checkFunds, checkOperationLimits, checkWalletPair, splitPayment } from "../payment/index.ts";
import { limitCheckoutCaller, limitCheckoutClient } from "../rate-limit/abuse-limits.ts";
import { generateOpaqueToken, hashOpaqueToken } from "../secrets/index.ts";
import { type SentAsNumber, verifyCheckoutSignature } from "../signature/index.ts";
import { findWalletsByNumber, type WalletRecord } from "../wallet/wallet-store.ts";
import { findFormTokensOfUser, insertCheckout } from "./checkout-store.ts";

/**
 * A checkout as its contract (`checkoutContract`) reads it: wallet numbers and `userInfo` trimmed
 * and not blank, `amount` a positive decimal and `id` not blank, each as sent (text, or a JSON
 * number's text: the signature covers them so), the signature without NUL.
 */
export interface CheckoutInput {
  readonly walletTo: string;
  readonly walletFrom: string;
  readonly amount: string;
  readonly id: string;
  readonly signature?: string | null;
  readonly successUrl?: string | null;
  readonly cancelUrl?: string | null;
  readonly statusUrl?: string | null;
  readonly userInfo: string;
  /**
   * Which of amount and id the request carried as JSON numbers (their text above is the number's
   * JSON text): the signature may then cover that number instead of a string. Doors whose input
   * is typed text leave it out.
   */
  readonly sentAsNumber?: SentAsNumber;
  /** The caller's address, for the per-address rate limit (doors that know it pass it). */
  readonly clientAddress?: string | null;
}

export interface CreatedCheckout {
  readonly url: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  readonly expiredAt: string;
}

/**
 * Creates a hosted payment link for a payment from `wallet_from` to `wallet_to`. The request is
 * authenticated by its signature, made with the form token of a client of the receiving user;
 * no money moves until the payer pays on the page.
 */
export async function createCheckout(
  deps: EngineDependencies,
  input: CheckoutInput,
): Promise<CreatedCheckout> {
  // The signature covers the texts as sent; they are trimmed for use.
  const walletTo = input.walletTo.trim();
  const walletFrom = input.walletFrom.trim();
  const { userInfo } = input;
  const amountText = input.amount.trim();
  const paymentId = input.id.trim();
  const signature = input.signature ?? "";
  // Whether a redirect must be https is the deployment's rule, known here, not in the contract.
  const urlRules = { requireHttps: deps.options.requireHttpsUrls };
  const successUrl = optionalWebUrl(input.successUrl, "successUrl", urlRules) ?? "";
  const cancelUrl = optionalWebUrl(input.cancelUrl, "cancelUrl", urlRules) ?? "";
  const statusUrl = optionalWebUrl(input.statusUrl, "statusUrl", urlRules) ?? "";

  await limitCheckoutCaller(deps, input.clientAddress);
  const em = deps.db.em();
  const wallets = await findWalletsByNumber(em, [walletTo, walletFrom], { lock: false });
  const receiver = activeOrNull(wallets.get(walletTo));
  if (!receiver) throw new PurseError("WALLET_TO_NOT_EXISTS", "walletTo");
  const sent = { walletTo: input.walletTo, walletFrom: input.walletFrom, amount: input.amount, id: input.id };
  const client = await signingClient(deps, receiver, sent, signature, input.sentAsNumber ?? {});
  // Before any funds or limit check: those answers would otherwise probe the payer's balance.
  await limitCheckoutClient(deps, client);
  const { sender } = checkWalletPair(wallets.get(walletFrom) ?? null, receiver);
  const currency = sender.currency;
  const amountMinor = amountInMinorUnits(amountText, currency.precession);
  const split = splitPayment("checkout", amountMinor, currency.commission.checkout);
  checkOperationLimits("checkout", currency, amountMinor, receiver, split.creditMinor);
  checkFunds("checkout", sender, split.debitMinor);

  const token = inMode(deps.db.mode === "test", generateOpaqueToken("chk", receiver.userId));
  // A test checkout is made and expires by its merchant's test clock (contract: "Test clock").
  const createdAt = (await clockedFor(deps, receiver.userId)).now();
  const expiresAt = new Date(createdAt.getTime() + deps.options.checkoutLifetimeMs);
  const tokenHash = hashOpaqueToken(token);
  await insertCheckout(em, {
    tokenHash,
    // Sealed, so the merchant's checkouts list can show the link again while it is open.
    linkSealed: deps.secretBox.seal(token, checkoutLinkBinding(tokenHash)),
    merchantUserId: receiver.userId,
    clientId: client,
    paymentId,
    userInfo,
    walletFromId: sender.id,
    walletToId: receiver.id,
    currencyId: currency.id,
    amountMinor,
    commissionMinor: split.feeMinor,
    signature,
    successUrl,
    cancelUrl,
    statusUrl,
    expiresAt,
    createdAt: deps.db.mode === "test" ? createdAt : null,
  });
  return { url: `${deps.options.payUrl}/${token}`, expiredAt: formatTimestamp(expiresAt) };
}

function activeOrNull(wallet: WalletRecord | undefined): WalletRecord | null {
  return wallet && wallet.status === "ACTIVE" ? wallet : null;
}

/** The id of the receiving user's client whose form token made this signature. */
async function signingClient(
  deps: EngineDependencies,
  receiver: WalletRecord,
  fields: { walletTo: string; walletFrom: string; amount: string; id: string },
  signature: string,
  sentAsNumber: SentAsNumber,
): Promise<number> {
  if (signature === "") throw new PurseError("SIGNATURE_NOT_IDENTICAL", "signature");
  // Each client's form token, and during a rotation's overlap its previous one as well.
  const tokens = await findFormTokensOfUser(deps.db.em(), receiver.userId);
  const signed = tokens.find((client) =>
    verifyCheckoutSignature(
      { wallet_to: fields.walletTo, wallet_from: fields.walletFrom, amount: fields.amount, id: fields.id },
      deps.secretBox.open(client.formTokenSealed, formTokenBinding(client.clientId)),
      signature,
      sentAsNumber,
    ),
  );
  if (!signed) throw new PurseError("SIGNATURE_NOT_IDENTICAL", "signature");
  return signed.id;
}
