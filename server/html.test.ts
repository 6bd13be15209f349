import { expect, test } from "vitest";
import { escapeHtml } from "./html";

test("escapeHtml escapes the five special characters", () => {
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});
