import { expect, test } from "vitest";
import messagesEn from "../messages/en.json";
import messagesIt from "../messages/it.json";
import { createI18next } from "./i18n";
import { colourName, variantLabel } from "./variant-label";

const it = createI18next("it", messagesIt).t;
const en = createI18next("en", messagesEn).t;

test("a colour key reads in the page's language, an unknown one as it is", () => {
  expect(colourName(it, "white")).toBe("Bianco");
  expect(colourName(en, "white")).toBe("White");
  expect(colourName(it, "lilla")).toBe("lilla");
});

test("a variant reads colour then size; one size is left out", () => {
  expect(variantLabel(it, { colour: "white", size: "m" })).toBe("Bianco · M");
  expect(variantLabel(en, { colour: "blue", size: "TAGLIA_UNICA" })).toBe("Blue");
  expect(variantLabel(it, { colour: null, size: "0-6 mesi" }, ", ")).toBe("0-6 mesi");
  expect(variantLabel(it, { colour: null, size: null })).toBe("");
});
