import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, NewAccountFields, SubmitButton, useErrorText, useFormWithProblems } from "#app/ui/account-form-parts.tsx";
import { FormCardPage } from "#app/ui/form-card-page.tsx";
import { authLimits } from "#server/accounts/auth.inputs.ts";
import { logIn } from "#server/accounts/auth-flows.service.ts";
import { echoFields, formFields } from "#server/accounts/form-values.ts";
import { createOwnerAccount, hasOwner, isOwnerSetupLinkValid } from "#server/accounts/owner-setup.service.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/owner-setup";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["auth", "ownerSetup"] } satisfies MessagesHandle;

/**
 * The owner's account, made with the one-time link the shop prints at start while it has no administrator
 * (server/accounts/owner-setup.service.ts). A used, expired or wrong link is refused with 403.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const { db } = context.get(shopContext);
  const token = url.searchParams.get("token") ?? "";
  const state = (await hasOwner(db)) ? "done" : (await isOwnerSetupLinkValid(db, token)) ? "open" : "refused";
  return data(
    { meta: getPageMetaTexts(localeOfPath(url.pathname), "ownerSetup"), state, token: state === "open" ? token : "", limits: authLimits },
    { status: state === "refused" ? 403 : 200 },
  );
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const fields = formFields(form);
  const created = await createOwnerAccount(services, fields);
  if (!created.ok) {
    const status = created.errors.form ? 403 : 400;
    return data({ errors: created.errors, values: echoFields(form, ["name", "email"]) }, { status });
  }
  const signedIn = await logIn(services, { request, clientIp: context.get(requestContext).clientIp, locale }, fields);
  if (!signedIn.ok) throw redirect(localizedHref("/login-register", locale));
  throw redirect(localizedHref("/admin", locale), { headers: signedIn.headers });
}

export default function OwnerSetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const { state, token, limits } = loaderData;
  const errors = actionData?.errors;
  const errorText = useErrorText(errors, limits);
  const formRef = useFormWithProblems(errors);
  const refused = state === "refused" || errors?.form !== undefined;
  return (
    <FormCardPage title={t("ownerSetup.title")} lead={t("ownerSetup.lead")} cardId="owner-setup-title" cardTitle={t("ownerSetup.formTitle")}>
      {state === "done" ? (
        <div className="mt-6 space-y-4">
          <AccountNotice kind="info">{t("ownerSetup.done")}</AccountNotice>
          <Link
            to={`${localizedHref("/login-register", locale)}?redirectTo=${encodeURIComponent(localizedHref("/admin", locale))}`}
            className="btn-primary"
          >
            {t("ownerSetup.signIn")}
          </Link>
        </div>
      ) : refused ? (
        <div className="mt-6 space-y-4">
          <AccountNotice kind="error">{t("ownerSetup.errors.linkInvalid")}</AccountNotice>
          <p className="text-muted">{t("ownerSetup.newLink")}</p>
        </div>
      ) : (
        <Form ref={formRef} method="post" noValidate className="mt-6 space-y-5">
          <input type="hidden" name="token" value={token} />
          <NewAccountFields errorText={errorText} limits={limits} values={actionData?.values} />
          <SubmitButton busyLabel={t("ownerSetup.submitting")} className="btn-primary px-8 py-3 text-base">
            {t("ownerSetup.submit")}
          </SubmitButton>
        </Form>
      )}
    </FormCardPage>
  );
}
