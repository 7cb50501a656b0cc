/** The key `purse serve` seals secrets with in the tests (and the run's sample-world template). */
export const testSecretKey = "conformance-secret-key-at-least-32-chars";
