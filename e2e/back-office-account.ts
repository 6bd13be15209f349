/**
 * The back-office account e2e/server.ts makes on the fresh data folder before the shop starts (the
 * embedded database takes one process at a time), for journeys that read the back office (the outbox).
 */
export const backOfficeAccount = { email: "negozio-e2e@bimbifelici.test", password: "Tr3no-Blu-Vesuvio-Ufficio" } as const;

/** False when the journeys run against a server someone else started (E2E_BASE_URL): it has no such account. */
export function hasBackOfficeAccount(): boolean {
  return process.env.E2E_BACK_OFFICE === "1";
}
