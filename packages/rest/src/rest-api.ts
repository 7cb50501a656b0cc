import type { EngineDependencies } from "@purse/engine";
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { registerBodyParsers } from "./http/body-parsers.ts";
import { installErrorHandling } from "./http/error-handling.ts";
import { registerOpenApi } from "./http/openapi.ts";
import type { RegisterRoute } from "./http/route-context.ts";
import { registerPayPage } from "./pay-page/register-pay-page.ts";
import { registerCheckout } from "./routes/checkout.ts";
import { registerHistories } from "./routes/histories.ts";
import { registerPay } from "./routes/pay.ts";
import { registerRates } from "./routes/rates.ts";
import { registerShowTransaction } from "./routes/show-transaction.ts";
import { registerToken } from "./routes/token.ts";
import { registerTransfer } from "./routes/transfer.ts";
import { registerVouchers } from "./routes/vouchers.ts";
import { registerWallets } from "./routes/wallets.ts";

const routes: readonly RegisterRoute[] = [
  registerToken,
  registerCheckout,
  registerPay,
  registerPayPage,
  registerTransfer,
  registerVouchers,
  registerHistories,
  registerShowTransaction,
  registerWallets,
  registerRates,
];

export interface RestApiOptions {
  readonly deps: EngineDependencies;
}

/**
 * Every path of the wallet payment API. Registered without encapsulation so its body parsers,
 * validators and documentation apply to the host server as a whole.
 */
export const restApi: FastifyPluginAsync<RestApiOptions> = async (app, { deps }) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerBodyParsers(app);
  await registerOpenApi(app);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const register of routes) register(typed, deps);
};
Object.assign(restApi, { [Symbol.for("skip-override")]: true });

/** A server with only the REST API: for tests, and a minimal deployment. */
export async function buildRestApp(deps: EngineDependencies): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 5000 } });
  installErrorHandling(app);
  await app.register(restApi, { deps });
  return app;
}
