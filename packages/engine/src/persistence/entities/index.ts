import { AccessTokenEntity } from "./access-token.ts";
import { CheckoutEntity } from "./checkout.ts";
import { ClientEntity } from "./client.ts";
import { CurrencyEntity } from "./currency.ts";
import { HistoryCountEntity } from "./history-count.ts";
import { HistoryMonthCountEntity } from "./history-month-count.ts";
import { IdempotencyKeyEntity } from "./idempotency-key.ts";
import { PostingEntity } from "./posting.ts";
import { RateEntity } from "./rate.ts";
import { SettingEntity } from "./settings.ts";
import { TransactionEntity } from "./transaction.ts";
import { UserEntity } from "./user.ts";
import { VoucherEntity } from "./voucher.ts";
import { WalletEntity } from "./wallet.ts";
import { WalletDayEntity } from "./wallet-day.ts";
import { WebhookAttemptEntity } from "./webhook-attempt.ts";
import { WebhookDeliveryEntity } from "./webhook-delivery.ts";

export {
  AccessTokenEntity,
  CheckoutEntity,
  ClientEntity,
  CurrencyEntity,
  HistoryCountEntity,
  HistoryMonthCountEntity,
  IdempotencyKeyEntity,
  PostingEntity,
  RateEntity,
  SettingEntity,
  TransactionEntity,
  UserEntity,
  VoucherEntity,
  WalletDayEntity,
  WalletEntity,
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
};

/** Every table the migrations create; schema-drift.test.ts holds the two to each other. */
export const allEntities = [
  SettingEntity,
  CurrencyEntity,
  RateEntity,
  UserEntity,
  ClientEntity,
  AccessTokenEntity,
  WalletEntity,
  TransactionEntity,
  PostingEntity,
  IdempotencyKeyEntity,
  HistoryCountEntity,
  HistoryMonthCountEntity,
  WalletDayEntity,
  VoucherEntity,
  CheckoutEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
];
