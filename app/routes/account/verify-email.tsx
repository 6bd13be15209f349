import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, SubmitButton } from "#app/ui/account-form-parts.tsx";
import { FormCardPage } from "#app/ui/form-card-page.tsx";
import { VerificationToken } from "#server/accounts/auth.inputs.ts";
import { verifyEmail } from "#server/accounts/auth-flows.service.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/verify-email";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["auth"] } satisfies MessagesHandle;

/**
 * The link of the verification e-mail opens this page; the address is confirmed by its button (a
 * POST), so mail scanners that follow links confirm nothing and get no session.
 */
export function loader({ url }: Route.LoaderArgs) {
  const token = VerificationToken.safeParse(url.searchParams.get("token") ?? "");
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "auth.verify"),
    token: token.success ? token.data : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const caller = { request, clientIp: context.get(requestContext).clientIp, locale };
  const result = await verifyEmail(context.get(shopContext), caller, form.get("token"));
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  // Signed in now (a new account), or already (an e-mail change): the account page says it is confirmed.
  const signedIn = result.signedInUserId !== null || (await getSessionUser(context, request)) !== null;
  const target = signedIn
    ? `${localizedHref("/my-account", locale)}?done=emailVerified`
    : `${localizedHref("/login-register", locale)}?notice=verified`;
  throw redirect(target, { headers: result.headers });
}

export default function VerifyEmailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const error = actionData?.error ?? (loaderData.token ? null : "verifyLinkInvalid");
  return (
    <FormCardPage title={t("auth.verify.title")} cardId="verify-title" cardTitle={t("auth.verify.formTitle")}>
      {error ? (
        <div className="mt-6 space-y-4">
          <AccountNotice kind="error">{t(`auth.errors.${error}`)}</AccountNotice>
          <p>{t("auth.verify.newLinkHelp")}</p>
          <Link to={localizedHref("/my-account", locale)} className="btn-primary">
            {t("auth.verify.toAccount")}
          </Link>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-5">
          <p>{t("auth.verify.lead")}</p>
          <input type="hidden" name="token" value={loaderData.token ?? ""} />
          <SubmitButton busyLabel={t("auth.verify.submitting")} className="btn-primary px-8 py-3 text-base">
            {t("auth.verify.submit")}
          </SubmitButton>
        </Form>
      )}
    </FormCardPage>
  );
}
