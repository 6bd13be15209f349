import { expect, onTestFinished, test } from "vitest";
import { createTestDb } from "#tests/db.ts";
import { createTestAuthServices, requestFor, routeContext, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { openServicesWithProvider, signInThroughProvider } from "#tests/fixtures/oidc.fixtures.ts";
import { loader } from "./login-register";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

test("back from the external provider with a session, the login page sends the person on to where they were going", slow, async () => {
  const { services } = await openServicesWithProvider();
  const { jar, callback } = await signInThroughProvider(services, "giulia");
  const url = new URL(callback.headers.get("location")!, testPublicUrl);
  const finished = await loader({
    request: requestFor(url.pathname + url.search, { jar }),
    url,
    context: routeContext(services),
    params: {},
  } as never).catch((thrown) => thrown);
  expect(finished).toBeInstanceOf(Response);
  expect((finished as Response).status).toBe(302);
  expect((finished as Response).headers.get("location")).toBe("/shopping");
});

test("without OIDC settings the login page offers no provider button", slow, async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  const url = new URL("/login-register", testPublicUrl);
  const page = await loader({ request: requestFor("/login-register"), url, context: routeContext(services), params: {} } as never);
  expect(page.oidcName).toBeNull();
});
