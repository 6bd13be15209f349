import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useSearchParams } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AddressForm, AddressList } from "#app/ui/account-addresses.tsx";
import { AccountNotice, type FormErrors } from "#app/ui/account-form-parts.tsx";
import { EmailStatus, ProfileForm } from "#app/ui/account-profile.tsx";
import { CustomerMailsChoice } from "#app/ui/customer-mails-choice.tsx";
import { ChangeEmailForm, ChangePasswordForm, LogOutEverywhereForm, PrivacyPanel } from "#app/ui/account-security.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { oidcSettingsOf } from "#server/accounts/auth.ts";
import { addressLimits } from "#server/accounts/address.inputs.ts";
import { authLimits } from "#server/accounts/auth.inputs.ts";
import {
  addAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  setDefaultAddress,
  updateAddress,
  type AddressResult,
} from "#server/accounts/address.service.ts";
import { changeEmail, changePassword, deleteAccount } from "#server/accounts/account-security.service.ts";
import { logOutEverywhere, resendVerificationEmail } from "#server/accounts/auth-flows.service.ts";
import { echoFields, formFields } from "#server/accounts/form-values.ts";
import { requireUser } from "#server/http/guards.ts";
import { profileLimits } from "#server/accounts/profile.inputs.ts";
import { getAccountProfile, updateProfile } from "#server/accounts/profile.service.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { MailChoiceInput } from "#server/customer-mails/customer-mails.inputs.ts";
import { getMailChoice, setMailChoice } from "#server/customer-mails/mail-choice.service.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts, getTranslator } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/my-account";

/** Confirmations shown after a change (Post/Redirect/Get: `?done=...`). */
const doneCodes = [
  "profileSaved",
  "addressAdded",
  "addressUpdated",
  "addressDeleted",
  "addressDefault",
  "emailSent",
  "passwordChanged",
  "verificationSent",
  "emailVerified",
] as const;
type DoneCode = (typeof doneCodes)[number];

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["auth", "myAccount", "customerMails.account"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const { db, env } = context.get(shopContext);
  const profile = await getAccountProfile(db, user.id);
  if (!profile) throw data(null, { status: 401 });
  const editId = url.searchParams.get("edit");
  const editing = editId === null ? null : await getAddress(db, user.id, editId);
  // Someone else's address (or none): not found, and nothing about it is shown.
  if (editId !== null && !editing) throw data(null, { status: 404 });
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "myAccount"),
    profile,
    addresses: await listAddresses(db, user.id),
    mailChoice: await getMailChoice(db, profile.email),
    mailChoiceSaved: (["on", "off"] as const).find((value) => value === url.searchParams.get("mails")) ?? null,
    editing,
    done: doneCodes.find((code) => code === url.searchParams.get("done")) ?? null,
    oidcName: oidcSettingsOf(env)?.name ?? null,
    limits: { ...profileLimits, ...addressLimits, password: authLimits.password, passwordMin: authLimits.passwordMin },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

const addressFields = ["label", "firstName", "lastName", "street", "houseNumber", "postcode", "city", "province", "phone", "isDefault"];

export async function action({ request, url, context }: Route.ActionArgs) {
  // Every action checks who is asking itself: the loader's check protects nothing here.
  const user = await requireUser(context, request);
  const services = context.get(shopContext);
  const { db } = services;
  const locale = localeOfPath(url.pathname);
  const caller = { request, clientIp: context.get(requestContext).clientIp, locale };
  const form = await request.formData();
  const fields = formFields(form);
  const intent = fields.intent ?? "";
  const accountPath = localizedHref("/my-account", locale);
  const done = (code: DoneCode, headers?: Headers) => redirect(`${accountPath}?done=${code}`, { headers });
  const refused = (errors: FormErrors, echo: string[] = []) => data({ intent, errors, values: echoFields(form, echo) }, { status: 400 });
  const addressOutcome = (result: AddressResult, code: DoneCode) => {
    if (result.ok) return done(code);
    if ("notFound" in result) throw data(null, { status: 404 });
    return refused(result.errors, addressFields);
  };

  switch (intent) {
    case "profile": {
      const result = await updateProfile(db, user.id, fields);
      return result.ok ? done("profileSaved") : refused(result.errors, ["name", "phone", "fiscalCode"]);
    }
    case "address-add":
      return addressOutcome(await addAddress(db, user.id, fields), "addressAdded");
    case "address-update":
      return addressOutcome(await updateAddress(db, user.id, fields.addressId, fields), "addressUpdated");
    case "address-delete":
      return addressOutcome(await deleteAddress(db, user.id, fields.addressId), "addressDeleted");
    case "address-default":
      return addressOutcome(await setDefaultAddress(db, user.id, fields.addressId), "addressDefault");
    case "email": {
      const result = await changeEmail(services, caller, user, fields);
      return result.ok ? done("emailSent") : refused(result.errors, ["newEmail"]);
    }
    case "password": {
      const result = await changePassword(services, caller, user, fields);
      return result.ok ? done("passwordChanged", result.headers) : refused(result.errors);
    }
    case "resend-verification": {
      const result = await resendVerificationEmail(services, caller, user.email);
      return result.ok ? done("verificationSent") : data({ intent, errors: result.errors, values: {} }, { status: 429 });
    }
    case "mail-choice": {
      const { wantsMails } = MailChoiceInput.parse({ wantsMails: fields.wantsMails ?? "off" });
      await setMailChoice(db, { email: user.email, objects: wantsMails !== "on", source: "account" });
      return redirect(`${accountPath}?mails=${wantsMails}#mails`);
    }
    case "logout-everywhere": {
      const headers = await logOutEverywhere(services, caller);
      return redirect(`${localizedHref("/login-register", locale)}?notice=loggedOut`, { headers });
    }
    case "delete-account": {
      const profile = await getAccountProfile(db, user.id);
      const result = await deleteAccount(services, caller, { ...user, hasPassword: profile?.hasPassword ?? false }, fields);
      if (!result.ok) return refused(result.errors);
      const flash = readCartRequest(request, services).cookieHeaders.flash([
        { kind: "info", message: getTranslator(locale)("myAccount.privacy.deleted") },
      ]);
      result.headers.append("Set-Cookie", flash);
      return redirect(localizedHref("/", locale), { headers: result.headers });
    }
  }
  return refused({ form: "auth.errors.invalidRequest" });
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4 rounded-3xl bg-white p-6 shadow-card sm:p-8">
      <h2 id={`${id}-title`} className="mb-6 text-2xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function MyAccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const [searchParams] = useSearchParams();
  const { profile, addresses, editing, done, oidcName, limits, mailChoice, mailChoiceSaved } = loaderData;
  const stateOf = (...intents: string[]) => (actionData && intents.includes(actionData.intent) ? actionData : undefined);
  const showDone = done && !actionData && searchParams.get("done") === done;
  const sections = [
    ["profile", t("myAccount.profile.title")],
    ["addresses", t("myAccount.addresses.title")],
    ["security", t("myAccount.security.title")],
    ["mails", t("customerMails.account.title")],
    ["privacy", t("myAccount.privacy.title")],
  ] as const;
  return (
    <>
      <PageHeader title={t("myAccount.title")}>
        <p>{t("myAccount.greeting", { name: profile.name })}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl space-y-8 px-4 py-10">
        {showDone && <AccountNotice kind="success">{t(`myAccount.done.${done}`)}</AccountNotice>}
        <div className="flex flex-col gap-4 rounded-3xl bg-white p-6 shadow-card sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <p className="font-semibold break-all">{profile.email}</p>
            <EmailStatus profile={profile} locale={locale} state={stateOf("resend-verification")} />
          </div>
          <ul className="flex flex-wrap gap-3 sm:shrink-0">
            <li>
              <Link to={localizedHref("/shopping", locale)} className="btn-secondary">
                {t("account.purchases")}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/crea-lista-nascita", locale)} className="btn-secondary">
                {t("account.giftLists")}
              </Link>
            </li>
          </ul>
        </div>
        <nav aria-label={t("myAccount.sectionsLabel")}>
          <ul className="flex flex-wrap gap-2">
            {sections.map(([id, title]) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className="inline-block rounded-full bg-brand-50 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-100"
                >
                  {title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <Section id="profile" title={t("myAccount.profile.title")}>
          <ProfileForm profile={profile} state={stateOf("profile")} limits={limits} locale={locale} />
        </Section>
        <Section id="addresses" title={t("myAccount.addresses.title")}>
          <div className="space-y-8">
            {stateOf("address-delete", "address-default")?.errors.form && <AccountNotice kind="error">{t(actionData!.errors.form!)}</AccountNotice>}
            <AddressList addresses={addresses} locale={locale} />
            <AddressForm
              key={`${editing?.id ?? "new"}:${addresses.length}:${done ?? ""}`}
              editing={editing}
              state={stateOf("address-add", "address-update")}
              limits={limits}
              locale={locale}
            />
          </div>
        </Section>
        <Section id="security" title={t("myAccount.security.title")}>
          <div className="grid gap-10 lg:grid-cols-2">
            {/* Remounted (fields emptied) after each change the page reports; siblings need keys of their own. */}
            <ChangeEmailForm key={`email:${done ?? ""}`} currentEmail={profile.email} state={stateOf("email")} locale={locale} />
            <ChangePasswordForm
              key={`password:${done ?? ""}`}
              hasPassword={profile.hasPassword}
              oidcName={oidcName}
              state={stateOf("password")}
              limits={limits}
              locale={locale}
            />
            <LogOutEverywhereForm locale={locale} />
          </div>
        </Section>
        <Section id="mails" title={t("customerMails.account.title")}>
          <CustomerMailsChoice choice={mailChoice} saved={mailChoiceSaved && !actionData ? mailChoiceSaved : null} locale={locale} />
        </Section>
        <Section id="privacy" title={t("myAccount.privacy.title")}>
          <PrivacyPanel hasPassword={profile.hasPassword} state={stateOf("delete-account")} locale={locale} />
        </Section>
      </div>
    </>
  );
}
