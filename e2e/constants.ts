export const ROOT_PASSWORD = 'e2e-root-Pass1'
/** The key the fake upstream accepts; channels made by the tests use it. */
export const UPSTREAM_KEY = 'sk-e2e-upstream'
