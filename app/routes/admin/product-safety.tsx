import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { parseAdminId } from "#server/admin/admin-request.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { isEuCountry } from "#server/product-safety/product-safety.ts";
import {
  BrandSafetyInput,
  formFields,
  parseSafetyForm,
  SafetyContactInput,
  SafetyWarningInput,
} from "#server/product-safety/product-safety.inputs.ts";
import {
  listBrandSafety,
  listSafetyContacts,
  listSafetyWarnings,
  saveSafetyContact,
  saveSafetyWarning,
  setBrandSafety,
} from "#server/product-safety/product-safety.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/product-safety";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["productSafety.admin", "productSafety.errors"] } satisfies MessagesHandle;

const intents = ["contact", "warning", "brand"] as const;
type Intent = (typeof intents)[number];

/** /admin/sicurezza: manufacturers and EU responsible persons, reusable warnings, and each brand's contacts (GPSR article 19). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const [contacts, warnings, brandRows] = await Promise.all([listSafetyContacts(db), listSafetyWarnings(db), listBrandSafety(db)]);
  const editedContact = contacts.find((contact) => contact.id === parseAdminId(url.searchParams.get("contact") ?? undefined)) ?? null;
  const editedWarning = warnings.find((warning) => warning.id === parseAdminId(url.searchParams.get("warning") ?? undefined)) ?? null;
  return {
    meta: getPageMetaTexts(locale, "productSafety.admin"),
    locale,
    done: url.searchParams.get("done") === "saved",
    contacts: contacts.map(({ id, role, name, postalAddress, countryCode, email }) => ({
      id,
      role,
      name,
      postalAddress,
      countryCode,
      email,
      isOutsideEu: !isEuCountry(countryCode),
    })),
    warnings: warnings.map(({ id, code, textIt, textEn }) => ({ id, code, textIt, textEn })),
    brands: brandRows,
    editedContact: editedContact && { ...editedContact, createdAt: undefined, updatedAt: undefined },
    editedWarning: editedWarning && { id: editedWarning.id, code: editedWarning.code, textIt: editedWarning.textIt, textEn: editedWarning.textEn },
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const intent = form.get("intent");
  const fields = formFields(form);
  const refused = (which: Intent | "form", errors: Record<string, string>) =>
    data({ intent: which, errors, values: fields as Record<string, string> }, { status: 400 });
  if (!intents.includes(intent as Intent)) return refused("form", { form: "productSafety.errors.invalid" });
  const section = `${intent as Intent}s`;
  const id = typeof fields.id === "string" && fields.id !== "" ? parseAdminId(fields.id) : null;
  if (typeof fields.id === "string" && fields.id !== "" && id === null) return refused(intent as Intent, { form: "productSafety.errors.invalid" });
  let result;
  if (intent === "contact") {
    const parsed = parseSafetyForm(SafetyContactInput, fields);
    if (!parsed.ok) return refused("contact", parsed.errors);
    result = await saveSafetyContact(db, { id, input: parsed.value, actorUserId: admin.id });
  } else if (intent === "warning") {
    const parsed = parseSafetyForm(SafetyWarningInput, fields);
    if (!parsed.ok) return refused("warning", parsed.errors);
    result = await saveSafetyWarning(db, { id, input: parsed.value, actorUserId: admin.id });
  } else {
    const parsed = parseSafetyForm(BrandSafetyInput, fields);
    if (!parsed.ok) return refused("brand", parsed.errors);
    result = await setBrandSafety(db, { input: parsed.value, actorUserId: admin.id });
  }
  if (result.ok) return redirect(`${localizedHref("/admin/sicurezza", locale)}?done=saved#${section}`);
  if ("notFound" in result) throw data(null, { status: 404 });
  return refused(intent as Intent, result.errors);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminProductSafety({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { contacts, warnings, brands, done, editedContact, editedWarning } = loaderData;
  const errorsFor = (intent: Intent) => (actionData?.intent === intent ? actionData.errors : {});
  const valuesFor = (intent: Intent) => (actionData?.intent === intent ? actionData.values : null);
  const contactErrors = errorsFor("contact");
  const contactValues = valuesFor("contact") ?? editedContact ?? { role: "manufacturer" };
  const warningErrors = errorsFor("warning");
  const warningValues = valuesFor("warning") ?? editedWarning ?? {};
  const message = (key: string | undefined) => (key ? t(key) : undefined);
  const manufacturers = contacts.filter((contact) => contact.role === "manufacturer");
  const persons = contacts.filter((contact) => contact.role === "responsible_person");
  const value = (values: object, name: string) => {
    const field = (values as Record<string, unknown>)[name];
    return typeof field === "string" || typeof field === "number" ? String(field) : "";
  };
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("productSafety.admin.title")}</h1>
      <p className="mt-2 max-w-prose">{t("productSafety.admin.intro")}</p>
      {done && (
        <div className="mt-4">
          <Notice>{t("productSafety.admin.saved")}</Notice>
        </div>
      )}
      {actionData?.errors.form && (
        <div className="mt-4">
          <FormAlert>{t(actionData.errors.form)}</FormAlert>
        </div>
      )}

      <h2 id="contacts" className="mt-8 text-2xl font-bold">
        {t("productSafety.admin.contacts")}
      </h2>
      <AdminTable
        label={t("productSafety.admin.contacts")}
        className="mt-3"
        minWidth="min-w-[44rem]"
        columns={[
          { label: t("productSafety.admin.fields.name") },
          { label: t("productSafety.admin.fields.role") },
          { label: t("productSafety.admin.fields.postalAddress") },
          { label: t("productSafety.admin.fields.email") },
        ]}
      >
        {contacts.map((contact) => (
          <tr key={contact.id} className="border-b border-brand-100 align-top">
            <td className="p-2">
              <Link to={`?contact=${contact.id}#contact-form`} className="font-semibold text-brand-800 underline">
                {contact.name}
              </Link>
            </td>
            <td className="p-2">{t(`productSafety.admin.roles.${contact.role}`)}</td>
            <td className="p-2">
              {contact.postalAddress} ({contact.countryCode}
              {contact.isOutsideEu && `, ${t("productSafety.admin.outsideEu")}`})
            </td>
            <td className="p-2 break-all">{contact.email}</td>
          </tr>
        ))}
      </AdminTable>
      <Form method="post" noValidate id="contact-form" className="mt-4 grid gap-4 rounded-2xl border border-brand-100 bg-white p-4 sm:grid-cols-2">
        <h3 className="text-lg font-bold sm:col-span-2">{editedContact ? editedContact.name : t("productSafety.admin.newContact")}</h3>
        <input type="hidden" name="intent" value="contact" />
        <input type="hidden" name="id" value={editedContact?.id ?? ""} />
        <SelectField
          label={t("productSafety.admin.fields.role")}
          name="role"
          defaultValue={value(contactValues, "role")}
          error={message(contactErrors.role)}
        >
          <option value="manufacturer">{t("productSafety.admin.roles.manufacturer")}</option>
          <option value="responsible_person">{t("productSafety.admin.roles.responsible_person")}</option>
        </SelectField>
        <TextField
          label={t("productSafety.admin.fields.name")}
          name="name"
          required
          defaultValue={value(contactValues, "name")}
          error={message(contactErrors.name)}
        />
        <TextField
          label={t("productSafety.admin.fields.postalAddress")}
          name="postalAddress"
          required
          defaultValue={value(contactValues, "postalAddress")}
          error={message(contactErrors.postalAddress)}
        />
        <TextField
          label={t("productSafety.admin.fields.countryCode")}
          name="countryCode"
          required
          maxLength={2}
          defaultValue={value(contactValues, "countryCode")}
          error={message(contactErrors.countryCode)}
        />
        <TextField
          label={t("productSafety.admin.fields.email")}
          name="email"
          type="email"
          required
          defaultValue={value(contactValues, "email")}
          error={message(contactErrors.email)}
        />
        <div className="flex items-end">
          <button type="submit" className="btn-primary">
            {t("productSafety.admin.save")}
          </button>
        </div>
      </Form>

      <h2 id="warnings" className="mt-10 text-2xl font-bold">
        {t("productSafety.admin.warnings")}
      </h2>
      <AdminTable
        label={t("productSafety.admin.warnings")}
        className="mt-3"
        minWidth="min-w-[44rem]"
        columns={[
          { label: t("productSafety.admin.fields.code") },
          { label: t("productSafety.admin.fields.textIt") },
          { label: t("productSafety.admin.fields.textEn") },
        ]}
      >
        {warnings.map((warning) => (
          <tr key={warning.id} className="border-b border-brand-100 align-top">
            <td className="p-2">
              <Link to={`?warning=${warning.id}#warning-form`} className="font-mono font-semibold text-brand-800 underline">
                {warning.code}
              </Link>
            </td>
            <td className="p-2">{warning.textIt}</td>
            <td className="p-2">{warning.textEn}</td>
          </tr>
        ))}
      </AdminTable>
      <Form method="post" noValidate id="warning-form" className="mt-4 grid gap-4 rounded-2xl border border-brand-100 bg-white p-4 sm:grid-cols-2">
        <h3 className="text-lg font-bold sm:col-span-2">{editedWarning ? editedWarning.code : t("productSafety.admin.newWarning")}</h3>
        <input type="hidden" name="intent" value="warning" />
        <input type="hidden" name="id" value={editedWarning?.id ?? ""} />
        <TextField
          label={t("productSafety.admin.fields.code")}
          name="code"
          required
          defaultValue={value(warningValues, "code")}
          error={message(warningErrors.code)}
        />
        <span aria-hidden="true" className="hidden sm:block" />
        <TextField
          label={t("productSafety.admin.fields.textIt")}
          name="textIt"
          multiline
          rows={3}
          required
          defaultValue={value(warningValues, "textIt")}
          error={message(warningErrors.textIt)}
        />
        <TextField
          label={t("productSafety.admin.fields.textEn")}
          name="textEn"
          multiline
          rows={3}
          required
          defaultValue={value(warningValues, "textEn")}
          error={message(warningErrors.textEn)}
        />
        <div>
          <button type="submit" className="btn-primary">
            {t("productSafety.admin.save")}
          </button>
        </div>
      </Form>

      <h2 id="brands" className="mt-10 text-2xl font-bold">
        {t("productSafety.admin.brands")}
      </h2>
      <ul className="mt-3 grid gap-3">
        {brands.map((brand) => {
          const brandErrors = actionData?.intent === "brand" && actionData.values.brandId === String(brand.id) ? actionData.errors : {};
          return (
            <li key={brand.id} className="rounded-2xl border border-brand-100 bg-white p-4">
              <Form method="post" noValidate className="grid gap-3 sm:grid-cols-[10rem_1fr_1fr_auto] sm:items-end">
                <input type="hidden" name="intent" value="brand" />
                <input type="hidden" name="brandId" value={brand.id} />
                <p className="font-semibold sm:pb-3">{brand.name}</p>
                <SelectField
                  label={t("productSafety.admin.fields.manufacturerId")}
                  name="manufacturerId"
                  defaultValue={String(brand.manufacturerId ?? "")}
                  error={message(brandErrors.manufacturerId)}
                >
                  <option value="">{t("productSafety.admin.none")}</option>
                  {manufacturers.map((contact) => (
                    <option key={contact.id} value={contact.id}>
                      {contact.name}
                    </option>
                  ))}
                </SelectField>
                <SelectField
                  label={t("productSafety.admin.fields.responsiblePersonId")}
                  name="responsiblePersonId"
                  defaultValue={String(brand.responsiblePersonId ?? "")}
                  error={message(brandErrors.responsiblePersonId)}
                >
                  <option value="">{t("productSafety.admin.none")}</option>
                  {persons.map((contact) => (
                    <option key={contact.id} value={contact.id}>
                      {contact.name}
                    </option>
                  ))}
                </SelectField>
                <button type="submit" className="btn-secondary" aria-label={`${t("productSafety.admin.save")} ${brand.name}`}>
                  {t("productSafety.admin.save")}
                </button>
              </Form>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
