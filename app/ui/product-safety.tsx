import { useTranslation } from "react-i18next";
import { formatDate } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import { getManualUrl } from "#common/media.ts";
import { colourName } from "#common/variant-label.ts";
import type { ProductPageVariant, ProductRecallNotice, ProductSafety } from "#server/catalog/product.service.ts";
import type { SafetyContact } from "#server/product-safety/product-safety.ts";

function Contact({ contact }: { contact: SafetyContact }) {
  return (
    <address className="not-italic">
      <span className="block font-semibold">{contact.name}</span>
      <span className="block">{contact.postalAddress}</span>
      <a href={`mailto:${contact.email}`} className="link break-all">
        {contact.email}
      </a>
    </address>
  );
}

/**
 * "Sicurezza del prodotto": what GPSR article 19 asks every online offer to show before the purchase:
 * manufacturer, EU responsible person, what identifies the product, its warnings and its manual.
 */
export function ProductSafetySection({ safety, sku }: { safety: ProductSafety; sku: string }) {
  const { t } = useTranslation();
  const identification: [string, string][] = [
    ...(safety.modelNumber ? [[t("productSafety.section.model"), safety.modelNumber] as [string, string]] : []),
    [t("productSafety.section.sku"), sku],
    ...(safety.gtins.length > 0 ? [[t("productSafety.section.gtin"), safety.gtins.join(", ")] as [string, string]] : []),
  ];
  return (
    <section aria-labelledby="product-safety" className="mt-12" data-testid="product-safety">
      <h2 id="product-safety" className="mb-1 text-2xl font-bold">
        {t("productSafety.section.title")}
      </h2>
      <p className="mb-4 text-sm text-muted">{t("productSafety.section.intro")}</p>
      <div className="grid gap-6 rounded-3xl bg-white p-5 shadow-card md:grid-cols-2">
        <dl className="grid content-start gap-4 text-sm">
          <div>
            <dt className="font-bold">{t("productSafety.section.manufacturer")}</dt>
            <dd>{safety.manufacturer ? <Contact contact={safety.manufacturer} /> : t("productSafety.section.missing")}</dd>
          </div>
          {safety.responsiblePerson && (
            <div>
              <dt className="font-bold">{t("productSafety.section.responsiblePerson")}</dt>
              <dd>
                <Contact contact={safety.responsiblePerson} />
              </dd>
            </div>
          )}
          <div>
            <dt className="font-bold">{t("productSafety.section.identification")}</dt>
            <dd>
              <ul>
                {identification.map(([label, value]) => (
                  <li key={label}>
                    {label}: <span className="font-mono">{value}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
        <div className="text-sm">
          <h3 className="font-bold">{t("productSafety.section.warnings")}</h3>
          {safety.warnings.length > 0 ? (
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {safety.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          ) : (
            <p className="mt-1">{t("productSafety.section.missing")}</p>
          )}
          {safety.manualKey && (
            <p className="mt-4">
              <a href={getManualUrl(safety.manualKey)} className="link font-semibold" type="application/pdf" download>
                {t("productSafety.section.manual")}
              </a>
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

/** "CHI-00120-BK (Nero, M)": a recalled variant as the buyer finds it on the label. */
function variantLabel(variant: ProductPageVariant, colourName: (colour: string) => string): string {
  const parts = [variant.colour ? colourName(variant.colour) : null, variant.isOneSize ? null : variant.size];
  const named = parts.filter(Boolean).join(", ");
  return [variant.sku, named && `(${named})`, variant.gtin && `GTIN ${variant.gtin}`].filter(Boolean).join(" ");
}

/**
 * A recall's notice on its product's page (GPSR article 36), in the order of the Commission's template
 * (Implementing Regulation (EU) 2024/1435): the product, the hazard, what to do, the remedy, the contact.
 */
export function RecallNotices({
  recalls,
  variants,
  locale,
  contact,
}: {
  recalls: ProductRecallNotice[];
  variants: ProductPageVariant[];
  locale: Locale;
  contact: { email: string; phone: string } | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      {recalls.map((recall) => (
        <section
          key={recall.id}
          aria-labelledby={`recall-${recall.id}`}
          className="mt-4 rounded-3xl border-4 border-coral-600 bg-coral-50 p-5"
          data-testid="recall-notice"
        >
          <h2 id={`recall-${recall.id}`} className="text-2xl font-extrabold text-coral-700">
            {t("productSafety.recall.title")}
          </h2>
          <p className="mt-1 font-semibold">{t("productSafety.recall.intro", { date: formatDate(recall.createdAt, locale) })}</p>
          <dl className="mt-3 grid gap-3">
            <div>
              <dt className="font-bold">{t("productSafety.recall.variants")}</dt>
              <dd>
                <ul>
                  {variants
                    .filter((variant) => recall.variantIds.includes(variant.id))
                    .map((variant) => (
                      <li key={variant.id} className="font-mono text-sm">
                        {variantLabel(variant, (colour) => colourName(t, colour))}
                      </li>
                    ))}
                </ul>
              </dd>
            </div>
            <div>
              <dt className="font-bold">{t("productSafety.recall.hazard")}</dt>
              <dd className="whitespace-pre-line">{recall.hazard}</dd>
            </div>
            <div>
              <dt className="font-bold">{t("productSafety.recall.whatToDo")}</dt>
              <dd className="whitespace-pre-line">{recall.whatToDo}</dd>
            </div>
            <div>
              <dt className="font-bold">{t("productSafety.recall.remedy")}</dt>
              <dd className="whitespace-pre-line">{recall.remedy}</dd>
            </div>
          </dl>
          {contact && <p className="mt-3 text-sm">{t("productSafety.recall.contact", contact)}</p>}
        </section>
      ))}
    </>
  );
}
