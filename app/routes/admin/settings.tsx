import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { onlinePaymentMethods } from "#common/online-payment-methods.ts";
import { TextField, CheckboxField } from "#app/ui/form-field.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { isSettingsKey, saveSettings, settingsKeys, settingsToForm } from "#server/admin/settings-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { takesScalapayPayments } from "#server/payments/scalapay.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/settings";

/** ISO weekdays, Monday first (as settings.ts stores opening hours). */
const weekdays = [1, 2, 3, 4, 5, 6, 7] as const;

/** The fields of each settings form, in page order; "long" ones are text areas. */
const sections = {
  shop: [
    "name",
    "legalName",
    "vatNumber",
    "street",
    "postcode",
    "city",
    "province",
    "phone",
    "whatsapp",
    "email",
    "facebookUrl",
    "instagramUrl",
    ...weekdays.map((day) => `hours${day}`),
  ],
  delivery: ["localPostcodes", "standardFee", "cashOnDeliveryFee"],
  deliveryTimes: ["cutoff", "preparationDays", "standardDays", "localDeliveryDays", "collectionDays", "closures"],
  bankTransfer: ["iban", "beneficiary", "bankName", "daysToPay"],
  giftListCompletion: ["percent", "windowDays"],
  newsletter: ["url"],
  api: ["allowedOrigins"],
  fiscal: [
    "denomination",
    "vatNumber",
    "fiscalCode",
    "regimeFiscale",
    "street",
    "houseNumber",
    "postcode",
    "city",
    "province",
    "reaOffice",
    "reaNumber",
  ],
  afterSales: ["withdrawalDays", "homeDeliveryStart", "collectionStart", "returnInstructionsIt", "returnInstructionsEn"],
  tracking: ["brt", "gls", "poste", "sda"],
  invoicing: ["issueAt"],
  // The two on/off boxes come first (CustomerMailsBoxes), then these numbers.
  customerMails: ["cartReminderDelayHours", "reviewInvitationDays"],
  loyalty: ["pointsPerEuro", "stepPoints", "stepValue", "expiryMonths", "noticeDays", "excludedKinds"],
  giftCardSales: ["presets", "min", "max", "validityMonths"],
  // Its fields are per method (OnlinePaymentFields): a box to offer it and its order limits.
  onlinePayments: [],
} as const;

/** The fiscal data's, the after-sales and the invoicing settings' texts live in their own sections of the messages; every other's with the settings'. */
const textsOf = (key: keyof typeof sections) =>
  key === "fiscal"
    ? "invoices.settings"
    : key === "afterSales"
      ? "afterSales.settings"
      : key === "invoicing"
        ? "sdi.settings"
        : key === "customerMails"
          ? "customerMails.settings"
          : key === "loyalty"
            ? "loyalty.settings"
            : key === "giftCardSales"
              ? "vouchers.settings"
              : "admin.settings";
const sectionTitleKey = (key: keyof typeof sections) => (key === "fiscal" ? "invoices.settings.title" : `${textsOf(key)}.sections.${key}`);

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "invoices.settings",
    "afterSales.settings",
    "sdi.settings",
    "onlinePayments.methods",
    "scalapay.admin",
    "customerMails.settings",
    "loyalty.settings",
    "vouchers.settings",
  ],
} satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db, env } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const settings = await getSettings(db, settingsKeys);
  const saved = url.searchParams.get("saved");
  return {
    meta: getPageMetaTexts(locale, "admin.settings"),
    locale,
    values: settingsToForm(settings),
    saved: isSettingsKey(saved) ? saved : null,
    // Scalapay is offered only with its key (decision 0104): the staff see whether it is there.
    scalapayConfigured: takesScalapayPayments(env),
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const form = Object.fromEntries(Object.entries(formFields(await request.formData())).map(([key, value]) => [key, value.slice(0, 5000)]));
  const key = form.key;
  if (!isSettingsKey(key)) return data({ key: null, errors: { form: "admin.errors.invalid" }, values: form }, { status: 400 });
  const result = await saveSettings(db, { key, form, actorUserId: admin.id });
  if (!result.ok) return data({ key, errors: result.errors, values: form }, { status: 400 });
  return redirect(`${localizedHref("/admin/impostazioni", localeOfPath(url.pathname))}?saved=${key}#${key}`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, values, saved } = loaderData;
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t("admin.settings.title")}</h1>
        <div className="flex flex-wrap gap-3">
          <Link to={localizedHref("/admin/posta", locale)} className="btn-secondary">
            {t("admin.outbox.title")}
          </Link>
          <Link to={localizedHref("/admin/cambi", locale)} className="btn-secondary">
            {t("admin.rates.title")}
          </Link>
        </div>
      </div>
      {saved && (
        <div className="mt-4">
          <Notice>{t("admin.settings.saved", { section: t(sectionTitleKey(saved)) })}</Notice>
        </div>
      )}
      {(Object.keys(sections) as (keyof typeof sections)[]).map((key) => {
        const failed = actionData?.key === key ? actionData : null;
        const current = failed ? failed.values : values[key];
        return (
          <Form key={key} method="post" id={key} className="mt-6 rounded-xl border border-brand-100 bg-white p-4" aria-labelledby={`${key}-title`}>
            <h2 id={`${key}-title`} className="text-xl font-bold">
              {t(sectionTitleKey(key))}
            </h2>
            {failed && (
              <div className="mt-3">
                <FormAlert>{t("admin.settings.fixErrors")}</FormAlert>
              </div>
            )}
            <input type="hidden" name="key" value={key} />
            {key === "onlinePayments" && (
              <OnlinePaymentFields values={current} errors={failed?.errors} scalapayConfigured={loaderData.scalapayConfigured} />
            )}
            {key === "customerMails" && <CustomerMailsBoxes values={current} />}
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              {sections[key].map((name) => {
                const label = name.startsWith("hours")
                  ? t("admin.settings.fields.hours", { day: t(`weekdays.${name.slice(5)}`) })
                  : t(`${textsOf(key)}.fields.${name}`);
                const hint = name.startsWith("hours")
                  ? t("admin.settings.hints.hours")
                  : t(`${textsOf(key)}.hints.${name}`, { defaultValue: "" }) || undefined;
                return (
                  <TextField
                    key={name}
                    label={label}
                    name={name}
                    defaultValue={current?.[name] ?? ""}
                    error={failed?.errors[name] ? t(failed.errors[name]) : undefined}
                    hint={hint}
                  />
                );
              })}
            </div>
            <button type="submit" className="btn-primary mt-4">
              {t("admin.settings.save", { section: t(sectionTitleKey(key)) })}
            </button>
          </Form>
        );
      })}
    </section>
  );
}

/** Per way to pay online: offered or not, and the order totals it is offered for (empty: no limit). */
function OnlinePaymentFields({
  values,
  errors,
  scalapayConfigured,
}: {
  values: Record<string, string> | undefined;
  errors: Record<string, string> | undefined;
  scalapayConfigured: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="mt-2 text-sm text-muted">{t("admin.settings.onlinePayments.intro")}</p>
      {onlinePaymentMethods.map((method) => (
        <fieldset key={method} className="mt-4 rounded-lg border border-brand-100 p-3">
          <legend className="px-1 font-semibold">{t(`onlinePayments.methods.${method}`)}</legend>
          {method === "scalapay" && (
            <p className="mb-2 text-sm text-muted">
              {t("scalapay.admin.direct")} {scalapayConfigured ? "" : t("scalapay.admin.notConfigured")}
            </p>
          )}
          <CheckboxField
            label={t("admin.settings.onlinePayments.offer", { method: t(`onlinePayments.methods.${method}`) })}
            name={`${method}Enabled`}
            defaultChecked={values?.[`${method}Enabled`] === "on"}
          />
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            {(["Min", "Max"] as const).map((limit) => (
              <TextField
                key={limit}
                label={t(`admin.settings.onlinePayments.fields.${limit}`, { method: t(`onlinePayments.methods.${method}`) })}
                name={`${method}${limit}`}
                inputMode="decimal"
                defaultValue={values?.[`${method}${limit}`] ?? ""}
                error={errors?.[`${method}${limit}`] ? t(errors[`${method}${limit}`]!) : undefined}
                hint={t("admin.settings.onlinePayments.noLimit")}
              />
            ))}
          </div>
        </fieldset>
      ))}
    </>
  );
}

/** The reminder and the invitation, each switched on or off; the staff's delays follow as numbers. */
function CustomerMailsBoxes({ values }: { values: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="mt-2 text-sm text-muted">{t("customerMails.settings.intro")}</p>
      <div className="mt-3 grid gap-2">
        {(["cartReminderEnabled", "reviewInvitationEnabled"] as const).map((name) => (
          <CheckboxField key={name} label={t(`customerMails.settings.fields.${name}`)} name={name} defaultChecked={values?.[name] === "on"} />
        ))}
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
