export { refuseRequest, trpcLimits } from "./refuse-request.ts";
export { type AppRouter, appRouter } from "./router.ts";
export type { TrpcContext } from "./trpc.ts";
