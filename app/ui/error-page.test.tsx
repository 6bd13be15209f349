import { expect, test } from "vitest";
import { renderPageAt } from "#tests/render-page.tsx";
import { ErrorPage } from "./error-page";

/** A thrown `data(null, { status })` as React Router hands it to an error boundary (what isRouteErrorResponse reads). */
const routeError = (status: number) => ({ status, statusText: "", data: null, internal: false });

test("a bug's error page says something went wrong, in the page's language, with a link home", () => {
  const italian = renderPageAt("/checkout", <ErrorPage error={new Error("boom")} />);
  expect(italian).toContain("Si è verificato un errore");
  expect(italian).toContain("Riprova tra qualche istante.");
  expect(italian).toContain('href="/"');
  expect(italian).not.toContain("boom");

  const english = renderPageAt("/en/checkout", <ErrorPage error={new Error("boom")} />);
  expect(english).toContain("Something went wrong");
  expect(english).toContain('href="/en"');
});

test("a refused post (403) and a post the page cannot take (400, 405, 415) get their own words", () => {
  expect(renderPageAt("/logout", <ErrorPage error={routeError(403)} />)).toContain("Operazione non consentita");
  expect(renderPageAt("/en/logout", <ErrorPage error={routeError(403)} />)).toContain("Action not allowed");
  for (const status of [400, 405, 415]) {
    expect(renderPageAt("/checkout", <ErrorPage error={routeError(status)} />)).toContain("Richiesta non valida");
    expect(renderPageAt("/en/checkout", <ErrorPage error={routeError(status)} />)).toContain("Invalid request");
  }
});
