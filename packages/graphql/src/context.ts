import {
  type Actor,
  authenticate,
  type CurrencyView,
  type EngineDependencies,
  loadCurrencies,
  loadWalletSummaries,
  PurseError,
  type WalletSummary,
} from "@purse/engine";
import DataLoader from "dataloader";
import { GraphQLError } from "graphql";

/** Per request: the engine, the caller (resolved lazily, once) and batching loaders. */
export interface GraphQLContext {
  readonly deps: EngineDependencies;
  actor(): Promise<Actor>;
  readonly currencies: DataLoader<number, CurrencyView | null>;
  readonly wallets: DataLoader<number, WalletSummary | null>;
}

export function createContext(deps: EngineDependencies, authorization: string | null): GraphQLContext {
  let actor: Promise<Actor> | undefined;
  const resolveActor = () => {
    actor ??= authenticate(deps, /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? null).catch(
      (error: unknown) => {
        throw PurseError.is(error) ? unauthenticated() : error;
      },
    );
    return actor;
  };
  return {
    deps,
    actor: resolveActor,
    // A page of transactions asks for its currencies and wallets in one query each.
    currencies: new DataLoader(async (ids) => {
      const found = await loadCurrencies(deps, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    wallets: new DataLoader(async (ids) => {
      const found = await loadWalletSummaries(deps, await resolveActor(), ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}

function unauthenticated(): GraphQLError {
  return new GraphQLError("Unauthorized", { extensions: { code: "UNAUTHORIZED", http: { status: 401 } } });
}
