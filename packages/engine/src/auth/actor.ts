export type Role = "merchant" | "partner";

/** Who is calling: resolved from a bearer token by the adapters, trusted by the use cases. */
export interface Actor {
  readonly userId: number;
  readonly role: Role;
  /** The API client whose token this is; null for a dashboard session (a token got by password). */
  readonly clientId: number | null;
  readonly scope: string;
}
