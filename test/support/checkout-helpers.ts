// One checkout helper for every test, beside the one test client in @purse/engine/testing.
export { createCheckout } from "@purse/testing";
