import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret } from "./webhook-secret.ts";

describe("generateWebhookSecret", () => {
  it("is whsec_ and 24 random bytes in base64, never twice the same", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it("is read by the Standard Webhooks library: what it signs, it verifies", () => {
    const webhook = new Webhook(generateWebhookSecret());
    const timestamp = new Date();
    const body = '{"payment_id":"order-1"}';
    const signature = webhook.sign("msg_1", timestamp, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    };
    expect(webhook.verify(body, headers)).toEqual({ payment_id: "order-1" });
  });
});
