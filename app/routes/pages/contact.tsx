import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PrivacyConsentField, TextField } from "#app/ui/form-field.tsx";
import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon, WhatsAppIcon } from "#app/ui/icons.tsx";
import { OpeningHoursList } from "#app/ui/opening-hours-list.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { formatWhatsappNumber, mapsHref, postalAddress, telHref, whatsappHref } from "#common/shop-contacts.ts";
import { contactLimits } from "#server/contact/contact.inputs.ts";
import { sendContactMessage } from "#server/contact/contact.service.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/contact";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["contact"] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "contact"),
    limits: contactLimits,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

const formFields = ["name", "email", "phone", "subject", "message"] as const;

export async function action({ request, url, context }: Route.ActionArgs) {
  const { db } = context.get(shopContext);
  const form = await request.formData();
  const result = await sendContactMessage(db, Object.fromEntries(form), localeOfPath(url.pathname), {
    clientIp: context.get(requestContext).clientIp,
  });
  if (!result.ok) {
    // Echo what was typed so nothing is lost (without JavaScript the page reloads), minus control
    // characters and within a sane length.
    const echo = (value: FormDataEntryValue | null) =>
      (typeof value === "string" ? value : "").replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").slice(0, 10_000);
    const values = Object.fromEntries(formFields.map((field) => [field, echo(form.get(field))]));
    return data(
      { errors: result.errors, throttled: result.throttled === true, values, privacy: form.get("privacy") === "on" },
      { status: result.throttled ? 429 : 400 },
    );
  }
  // Post/Redirect/Get: reloading the confirmation does not send the message again.
  return redirect(`${url.pathname}?sent=1`);
}

function ContactForm({ actionData, limits }: { actionData: Route.ComponentProps["actionData"]; limits: typeof contactLimits }) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const summaryId = useId();
  const errors: Partial<Record<string, string>> = actionData?.errors ?? {};
  const values: Partial<Record<string, string>> = actionData?.values ?? {};
  const errorOf = (field: string) => (errors[field] ? t(errors[field]) : undefined);
  const hasErrors = Object.keys(errors).length > 0;
  const throttled = actionData?.throttled === true;
  const submitting = navigation.state === "submitting";

  // After a refused submission, take the keyboard to the first field to fix.
  useEffect(() => {
    if (hasErrors) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [actionData, hasErrors]);

  return (
    <Form ref={formRef} method="post" noValidate className="space-y-5" aria-describedby={hasErrors || throttled ? summaryId : undefined}>
      {(hasErrors || throttled) && (
        <p id={summaryId} role="alert" className="rounded-xl border-2 border-coral-600 bg-coral-50 p-4 font-semibold text-coral-700">
          {t(throttled ? "contact.errors.tooMany" : "contact.errorSummary")}
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={t("contact.name")}
          name="name"
          autoComplete="name"
          required
          maxLength={limits.name}
          defaultValue={values.name}
          error={errorOf("name")}
        />
        <TextField
          label={t("contact.email")}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={limits.email}
          defaultValue={values.email}
          error={errorOf("email")}
        />
        <TextField
          label={t("contact.phone")}
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={limits.phone}
          defaultValue={values.phone}
          hint={t("contact.phoneHint")}
          error={errorOf("phone")}
        />
        <TextField
          label={t("contact.subject")}
          name="subject"
          required
          maxLength={limits.subject}
          defaultValue={values.subject}
          error={errorOf("subject")}
        />
      </div>
      <TextField
        multiline
        label={t("contact.message")}
        name="message"
        rows={7}
        required
        maxLength={limits.message}
        defaultValue={values.message}
        hint={t("contact.messageHint", { min: limits.messageMin, max: limits.message })}
        error={errorOf("message")}
      />
      <PrivacyConsentField
        label={t("contact.privacyConsent")}
        linkText={t("contact.privacyLink")}
        privacyHref={localizedHref("/privacy", i18n.language === "en" ? "en" : "it")}
        error={errorOf("privacy")}
        defaultChecked={actionData?.privacy ?? false}
      />
      <button type="submit" className="btn-primary px-8 py-3 text-base" disabled={submitting}>
        {submitting ? t("contact.sending") : t("contact.send")}
      </button>
    </Form>
  );
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const root = useRootData();
  if (!root) return null;
  const { shop, locale } = root;
  const sent = searchParams.get("sent") === "1" && !actionData;
  return (
    <>
      <PageHeader title={t("contact.title")}>
        <p>{t("contact.lead")}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-10 lg:grid-cols-[1fr_20rem] lg:items-start">
        <section aria-labelledby="contact-form-title">
          <h2 id="contact-form-title" className="mb-5 text-2xl font-bold">
            {t("contact.formTitle")}
          </h2>
          {sent ? (
            <div role="status" className="rounded-2xl border-2 border-brand-600 bg-brand-50 p-6">
              <p className="text-lg font-bold text-brand-800">{t("contact.sentTitle")}</p>
              <p className="mt-2">{t("contact.sentText")}</p>
              <Link to={localizedHref("/contact", locale)} className="link mt-4 inline-block">
                {t("contact.sendAnother")}
              </Link>
            </div>
          ) : (
            <>
              <p className="mb-5 text-sm text-muted">{t("contact.requiredNote")}</p>
              <ContactForm actionData={actionData} limits={loaderData.limits} />
            </>
          )}
        </section>

        <aside aria-labelledby="contact-shop-title" className="space-y-6 rounded-3xl bg-white p-6 shadow-card">
          <h2 id="contact-shop-title" className="text-xl font-bold">
            {t("contact.shopTitle", { shop: shop.name })}
          </h2>
          <address className="space-y-4 not-italic">
            <p className="flex gap-3">
              <MapPinIcon className="shrink-0 text-brand-700" />
              <span>
                {postalAddress(shop)}
                <br />
                <a href={mapsHref(shop)} className="link text-sm">
                  {t("contact.directions")}
                </a>
              </span>
            </p>
            <p className="flex items-center gap-3">
              <PhoneIcon className="shrink-0 text-brand-700" />
              <a href={telHref(shop.phone)} className="link">
                <span className="sr-only">{t("contact.phoneLabel")} </span>
                {shop.phone}
              </a>
            </p>
            <p className="flex items-center gap-3">
              <WhatsAppIcon className="shrink-0 text-brand-700" />
              <a href={whatsappHref(shop.whatsapp)} className="link">
                <span className="sr-only">WhatsApp </span>
                {formatWhatsappNumber(shop.whatsapp)}
              </a>
            </p>
            <p className="flex items-center gap-3">
              <MailIcon className="shrink-0 text-brand-700" />
              <a href={`mailto:${shop.email}`} className="link break-all">
                <span className="sr-only">{t("contact.emailLabel")} </span>
                {shop.email}
              </a>
            </p>
          </address>
          <div className="flex gap-3">
            <ClockIcon className="shrink-0 text-brand-700" />
            <div>
              <h3 className="mb-1 font-bold">{t("openingHours.title")}</h3>
              <OpeningHoursList hours={shop.openingHours} className="text-sm" />
            </div>
          </div>
        </aside>
      </div>
    </>
  );
}
