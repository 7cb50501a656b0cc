export * from "./enqueue-notification.ts";
export * from "./notification.ts";
export * from "./retry-schedule.ts";
export * from "./rotate-webhook-secret.ts";
export * from "./standard-webhooks.ts";
export * from "./webhook-admin.ts";
export * from "./webhook-dispatcher.ts";
