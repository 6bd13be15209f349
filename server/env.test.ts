import { expect, test } from "vitest";
import { cardPaymentProviderOf, ConfigError, publicUrlOf, readEnv, refuseLocalPublicUrl } from "./env.ts";

test("with nothing set the shop runs on port 3000 with the embedded database", () => {
  const env = readEnv({});
  expect(env.PORT).toBe(3000);
  expect(env.DATABASE_URL).toBeUndefined();
  expect(env.DATA_DIR).toBe("./data");
  expect(publicUrlOf(env)).toBe("http://localhost:3000");
});

test("a bad PORT is one readable line naming the setting", () => {
  for (const port of ["abc", "0", "70000", "3.5"]) {
    expect(() => readEnv({ PORT: port })).toThrow(ConfigError);
    expect(() => readEnv({ PORT: port })).toThrow(/^Bad configuration: PORT: PORT must be a whole number between 1 and 65535$/);
  }
});

test("an unreadable DATABASE_URL is refused before anything connects", () => {
  for (const url of ["not a url", "mysql://root@localhost/shop", "postgres://"]) {
    expect(() => readEnv({ DATABASE_URL: url })).toThrow(/DATABASE_URL must look like postgres:\/\/user:password@host:5432\/database/);
  }
  expect(readEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" }).DATABASE_URL).toContain("127.0.0.1");
});

test("empty variables count as unset", () => {
  expect(readEnv({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
});

test("PUBLIC_URL drives links and loses its trailing slash", () => {
  expect(publicUrlOf(readEnv({ PUBLIC_URL: "https://shop.example.it/" }))).toBe("https://shop.example.it");
});

test("the test clock is refused on a public address and allowed on this machine", () => {
  expect(() => readEnv({ TEST_CLOCK_HEADER: "true", PUBLIC_URL: "https://www.bimbifelici.it" })).toThrow(/TEST_CLOCK_HEADER is for tests only/);
  expect(readEnv({ TEST_CLOCK_HEADER: "true", PUBLIC_URL: "http://127.0.0.1:4123" }).TEST_CLOCK_HEADER).toBe(true);
  expect(readEnv({ TEST_CLOCK_HEADER: "true" }).TEST_CLOCK_HEADER).toBe(true);
  expect(readEnv({}).TEST_CLOCK_HEADER).toBe(false);
});

test("in production without Stripe keys nobody takes cards, unless test payments are allowed by name", () => {
  expect(cardPaymentProviderOf(readEnv({}))).toBe("none");
  expect(cardPaymentProviderOf(readEnv({ NODE_ENV: "production", ALLOW_TEST_PAYMENTS: "false" }))).toBe("none");
  expect(cardPaymentProviderOf(readEnv({ NODE_ENV: "production", ALLOW_TEST_PAYMENTS: "true" }))).toBe("test");
  expect(cardPaymentProviderOf(readEnv({ NODE_ENV: "development" }))).toBe("test");
  expect(cardPaymentProviderOf(readEnv({ NODE_ENV: "test" }))).toBe("test");
  // Stripe keys win everywhere: the test page is never used beside them.
  expect(cardPaymentProviderOf(readEnv({ STRIPE_SECRET_KEY: "sk_live_x", ALLOW_TEST_PAYMENTS: "true" }))).toBe("stripe");
  expect(() => readEnv({ ALLOW_TEST_PAYMENTS: "yes" })).toThrow(/ALLOW_TEST_PAYMENTS must be "true" or "false"/);
});

test("a production start refuses a PUBLIC_URL on this machine unless told it is a try-out or a test", () => {
  for (const settings of [
    {},
    { PUBLIC_URL: "http://localhost:3000" },
    { PUBLIC_URL: "http://127.0.0.1:8080" },
    { PUBLIC_URL: "http://[::1]:3000" },
    { PUBLIC_URL: "https://shop.localhost" },
  ]) {
    expect(() => refuseLocalPublicUrl(readEnv(settings))).toThrow(ConfigError);
    expect(() => refuseLocalPublicUrl(readEnv(settings))).toThrow(
      /^Bad configuration: PUBLIC_URL: .* is this machine only; .*ALLOW_LOCALHOST_PUBLIC_URL=true/,
    );
    expect(() => refuseLocalPublicUrl(readEnv({ ...settings, ALLOW_LOCALHOST_PUBLIC_URL: "true" }))).not.toThrow();
    expect(() => refuseLocalPublicUrl(readEnv({ ...settings, NODE_ENV: "development" }))).not.toThrow();
    expect(() => refuseLocalPublicUrl(readEnv({ ...settings, NODE_ENV: "test" }))).not.toThrow();
  }
  expect(() => refuseLocalPublicUrl(readEnv({ PUBLIC_URL: "https://www.bimbifelici.it" }))).not.toThrow();
  expect(() => refuseLocalPublicUrl(readEnv({ PUBLIC_URL: "http://192.168.1.20:3000" }))).not.toThrow();
  expect(() => readEnv({ ALLOW_LOCALHOST_PUBLIC_URL: "yes" })).toThrow(
    /^Bad configuration: ALLOW_LOCALHOST_PUBLIC_URL: ALLOW_LOCALHOST_PUBLIC_URL must be true or false$/,
  );
});
