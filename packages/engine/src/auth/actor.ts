export type Role = "merchant" | "partner";

/** Who is calling: resolved from a bearer token by the adapters, trusted by the use cases. */
export interface Actor {
  readonly userId: number;
  readonly role: Role;
  readonly clientId: number;
  readonly scope: string;
}
