import { requireScope } from "../auth/access-scope.ts";
import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { statementBound } from "../input/instant.ts";
import { type WalletStatement, walletStatement } from "../transactions/wallet-statement.ts";
import { creditWallet } from "./admin-wallets.ts";
import { isOperator, operatorOf } from "./operator-access.ts";
import type { OperatorMovementResult } from "./operator-movement.ts";
import { payOutWallet } from "./pay-out-wallet.ts";
import { reverseTransaction } from "./reverse-transaction.ts";

/**
 * The operator verbs and the statement as the API doors (GraphQL, tRPC) serve them: the operator
 * comes from the caller's operator token, the note is defaulted, the result says who moved it.
 * The command line calls the verbs underneath with the operator it was given.
 */
export interface OperatorMovementRequest {
  readonly wallet: string;
  readonly amount: string;
  readonly key: string;
  readonly note?: string | null | undefined;
}

export interface OperatorReversalRequest {
  readonly transactionId: number;
  readonly key: string;
  readonly note?: string | null | undefined;
}

export interface AttributedMovement extends OperatorMovementResult {
  readonly operator: string;
}

export interface StatementRequest {
  readonly wallet: string;
  readonly from: string;
  readonly to?: string | null | undefined;
}

/** Operator token only: credit a wallet from equity (DEPOSIT). */
export function creditWalletAsOperator(
  deps: EngineDependencies,
  actor: Actor,
  request: OperatorMovementRequest,
) {
  return moveAsOperator(deps, actor, request, "Operator credit", creditWallet);
}

/** Operator token only: pay money out of a wallet (WITHDRAW). */
export function payOutWalletAsOperator(
  deps: EngineDependencies,
  actor: Actor,
  request: OperatorMovementRequest,
) {
  return moveAsOperator(deps, actor, request, "Operator payout", payOutWallet);
}

async function moveAsOperator(
  deps: EngineDependencies,
  actor: Actor,
  request: OperatorMovementRequest,
  defaultNote: string,
  move: typeof creditWallet,
): Promise<AttributedMovement> {
  const operator = operatorOf(actor);
  const done = await move(deps, {
    number: request.wallet,
    amount: request.amount,
    note: request.note ?? defaultNote,
    key: request.key,
    operator,
  });
  return { ...done, operator };
}

/** Operator token only: a compensating transaction linked to the original. */
export async function reverseTransactionAsOperator(
  deps: EngineDependencies,
  actor: Actor,
  request: OperatorReversalRequest,
): Promise<AttributedMovement> {
  const operator = operatorOf(actor);
  const done = await reverseTransaction(deps, {
    transactionId: request.transactionId,
    note: request.note ?? `Reversal of transaction ${request.transactionId}`,
    key: request.key,
    operator,
  });
  return { ...done, operator };
}

/** A wallet's statement: the owner's wallets (another's is NOT_FOUND), or any with an operator token. */
export function showStatement(
  deps: EngineDependencies,
  actor: Actor,
  request: StatementRequest,
): Promise<WalletStatement> {
  requireScope(actor, ["user", "operator"]);
  const operator = isOperator(actor);
  return walletStatement(deps.db, {
    number: request.wallet,
    from: statementBound(request.from, "from", false),
    to: request.to ? statementBound(request.to, "to", true) : deps.now(),
    ...(operator ? {} : { ownerId: actor.userId }),
  });
}
