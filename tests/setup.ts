/**
 * Runs before every test file: a test that makes anything call console.error fails
 * (React warnings, swallowed errors logged "just in case"...): silent breakage gets caught.
 *
 * A test that expects an error log says so explicitly, which also keeps the output clean:
 *   const spy = vi.spyOn(console, "error").mockImplementation(() => {});
 *   ...; expect(spy).toHaveBeenCalledWith(...);
 */
import { format } from "node:util";
import { afterAll, afterEach } from "vitest";

const logged: string[] = [];
// Test files share a worker (vitest.config.ts, isolate false) and this file runs before each: wrap the
// console's own console.error, not the previous file's wrapper.
const originalError = Symbol.for("bimbi.tests.console.error");
const holder = globalThis as { [originalError]?: typeof console.error };
const printError = (holder[originalError] ??= console.error.bind(console));

console.error = (...args: unknown[]) => {
  logged.push(format(...args));
  printError(...args);
};

function failOnLoggedErrors(when: string) {
  if (logged.length === 0) return;
  const messages = logged.splice(0).map((message) => `  - ${message.split("\n")[0]}`);
  throw new Error(`console.error was called ${when}:\n${messages.join("\n")}`);
}

afterEach(() => failOnLoggedErrors("during this test"));
afterAll(() => failOnLoggedErrors("outside a test (module load, beforeAll or afterAll)"));
