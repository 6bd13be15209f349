import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { z } from "zod";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { findSizeForHeight, sizeGuide, sizeGuideAge, sizeGuideHeightBounds, type SizeGuideRow } from "#common/size-guide.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/size-guide";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["sizeGuide"] } satisfies MessagesHandle;

const [minHeight, maxHeight] = sizeGuideHeightBounds;

/** `?height=` as typed: absent is no question; anything but whole centimetres within bounds is refused. */
const HeightParam = z.union([
  z.null(),
  z.literal("").transform(() => null),
  z
    .string()
    .trim()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().min(minHeight).max(maxHeight)),
]);

/** /guida-alle-taglie: the clothing size guide, and which size for a child's height (a GET form, no JavaScript needed). */
export function loader({ url }: Route.LoaderArgs) {
  const locale = localeOfPath(url.pathname);
  const asked = url.searchParams.get("height");
  const parsed = HeightParam.safeParse(asked);
  const heightCm = parsed.success ? parsed.data : null;
  const match = heightCm === null ? null : findSizeForHeight(heightCm);
  return {
    meta: getPageMetaTexts(locale, "sizeGuide"),
    path: localizedHref("/guida-alle-taglie", locale),
    asked: parsed.success ? (heightCm === null ? "" : String(heightCm)) : (asked ?? "").slice(0, 10),
    answer: !parsed.success
      ? ({ kind: "invalid" } as const)
      : heightCm === null
        ? null
        : match
          ? ({ kind: "size", heightCm, size: match.size } as const)
          : ({ kind: "outOfRange", heightCm } as const),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function SizeGuidePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { answer, asked, path } = loaderData;
  const inputId = useId();
  const answerId = useId();
  const ageText = (entry: SizeGuideRow) => {
    const age = sizeGuideAge(entry);
    return t(`sizeGuide.age_${age.unit}`, { from: age.from, to: age.to });
  };
  const chosen = answer?.kind === "size" ? sizeGuide.find((entry) => entry.size === answer.size) : undefined;
  return (
    <>
      <PageHeader title={t("sizeGuide.title")}>
        <p>{t("sizeGuide.lead")}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-10 lg:grid-cols-[3fr_2fr]">
        <div className="overflow-x-auto">
          <table className="w-full overflow-hidden rounded-2xl bg-white text-left shadow-card">
            <caption className="mb-3 text-left text-xl font-bold">{t("sizeGuide.caption")}</caption>
            <thead className="bg-brand-50">
              <tr>
                <th scope="col" className="px-4 py-2.5">
                  {t("sizeGuide.columns.size")}
                </th>
                <th scope="col" className="px-4 py-2.5">
                  {t("sizeGuide.columns.age")}
                </th>
                <th scope="col" className="px-4 py-2.5">
                  {t("sizeGuide.columns.height")}
                </th>
              </tr>
            </thead>
            <tbody>
              {sizeGuide.map((entry) => {
                const isChosen = entry === chosen;
                return (
                  <tr key={entry.size} className={`border-t border-brand-100 ${isChosen ? "bg-sun-50 font-semibold" : ""}`}>
                    <th scope="row" className="px-4 py-2.5">
                      {entry.size}
                      {isChosen && <span className="sr-only"> ({t("sizeGuide.chosen")})</span>}
                    </th>
                    <td className="px-4 py-2.5 whitespace-nowrap">{ageText(entry)}</td>
                    <td className="px-4 py-2.5 whitespace-nowrap">{t("sizeGuide.height", { min: entry.heightMinCm, max: entry.heightMaxCm })}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="mt-3 text-muted">{t("sizeGuide.tip")}</p>
        </div>
        <section aria-labelledby="size-finder" className="self-start rounded-2xl bg-white p-5 shadow-card">
          <h2 id="size-finder" className="text-xl font-bold">
            {t("sizeGuide.finder.title")}
          </h2>
          <Form method="get" action={path} preventScrollReset className="mt-4 space-y-3">
            <label htmlFor={inputId} className="field-label">
              {t("sizeGuide.finder.label")}
            </label>
            <input
              id={inputId}
              key={asked}
              type="number"
              inputMode="numeric"
              name="height"
              min={minHeight}
              max={maxHeight}
              step={1}
              defaultValue={asked}
              aria-invalid={answer?.kind === "invalid" ? true : undefined}
              aria-describedby={answer ? answerId : undefined}
              className="field-input"
            />
            <button type="submit" className="btn-primary w-full">
              {t("sizeGuide.finder.submit")}
            </button>
          </Form>
          {answer && (
            <p id={answerId} role="status" className={`mt-4 ${answer.kind === "invalid" ? "field-error" : "font-semibold"}`}>
              {answer.kind === "invalid"
                ? t("sizeGuide.finder.invalid", { min: minHeight, max: maxHeight })
                : answer.kind === "outOfRange"
                  ? t("sizeGuide.finder.outOfRange", { height: answer.heightCm })
                  : t("sizeGuide.finder.result", { height: answer.heightCm, size: answer.size, age: chosen ? ageText(chosen) : "" })}
            </p>
          )}
        </section>
      </div>
    </>
  );
}
