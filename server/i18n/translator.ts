import type { TFunction } from "i18next";
import { createI18next } from "#common/i18n.ts";
import type { Locale } from "#common/locale.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";

/**
 * Texts that loaders must produce themselves (page titles and descriptions for `meta`, which runs
 * outside React). One read-only i18next instance per language, shared by every request.
 */
const translators = new Map<Locale, TFunction>();

export function getTranslator(locale: Locale): TFunction {
  let t = translators.get(locale);
  if (!t) {
    t = createI18next(locale, locale === "en" ? messagesEn : messagesIt).t;
    translators.set(locale, t);
  }
  return t;
}

export type PageMetaTexts = { title: string; description: string };

/** `{page}.metaTitle` and `{page}.metaDescription` in `locale`. */
export function getPageMetaTexts(locale: Locale, page: string): PageMetaTexts {
  const t = getTranslator(locale);
  return { title: t(`${page}.metaTitle`), description: t(`${page}.metaDescription`) };
}
