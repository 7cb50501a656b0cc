// One checkout helper for every test, beside the one test client in @purse/testing.
export { createCheckout } from "@purse/testing";
