import { expect, test } from "vitest";
import { pageMeta } from "./seo";

test("titles follow 'Page | Shop name'", () => {
  const matches = [{ id: "root", loaderData: { shop: { name: "Bimbi Felici" } } }, { id: "about" }];
  expect(pageMeta(matches, { title: "Chi siamo", description: "La nostra storia" })).toEqual([
    { title: "Chi siamo | Bimbi Felici" },
    { name: "description", content: "La nostra storia" },
  ]);
  expect(pageMeta(matches, undefined)).toEqual([{ title: "Bimbi Felici" }]);
});
