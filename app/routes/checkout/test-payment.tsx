import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { formatMoney } from "#common/format.ts";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, SubmitButton } from "#app/ui/account-form-parts.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { getTestPaymentView, submitTestPayment } from "#server/payments/payment.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/test-payment";

/**
 * /pagamento-di-prova/{ref}: the labelled test-payment page, the "hosted payment page" of the test
 * provider when no Stripe key is configured. No money moves. Plain forms, so it works without JavaScript.
 */
const TestPaymentIntent = z.enum(["pay", "fail", "cancel"]);

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["payments", "auth.fields", "onlinePayments.methods", "onlinePayments.testPageMethod"] } satisfies MessagesHandle;

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const locale = localeOfPath(url.pathname);
  const view = await getTestPaymentView(context.get(shopContext), { ref: params.ref, locale });
  if (!view) throw data(null, { status: 404 });
  return { meta: getPageMetaTexts(locale, "payments.testPage"), view };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

export async function action({ request, params, url, context }: Route.ActionArgs) {
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const intent = TestPaymentIntent.safeParse(form.get("intent"));
  if (!intent.success) throw data(null, { status: 400 });
  const result = await submitTestPayment(context.get(shopContext), { ref: params.ref, intent: intent.data, locale });
  if (!result.ok) throw data(null, { status: 404 });
  throw redirect(result.redirectTo);
}

export default function TestPaymentPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const { view } = loaderData;
  const amount = formatMoney(view.amountCents, locale, "EUR");
  return (
    <>
      <PageHeader title={t("payments.testPage.title")} />
      <div className="mx-auto max-w-xl px-4 py-10">
        <section aria-labelledby="test-payment-order" className="space-y-6 rounded-3xl bg-white p-6 shadow-card sm:p-8">
          <p className="rounded-xl border-2 border-dashed border-coral-600 bg-coral-50 p-4 text-center text-lg font-bold text-coral-700">
            {t("payments.testPage.banner")}
          </p>
          <p>{t("payments.testPage.lead")}</p>
          <div>
            <h2 id="test-payment-order" className="text-2xl font-bold">
              {t("payments.testPage.order", { number: view.orderNumber })}
            </h2>
            <p className="mt-2 flex items-baseline justify-between gap-4 text-lg">
              <span>{t("payments.testPage.amount")}</span>
              <strong className="text-2xl" data-testid="test-payment-amount">
                {amount}
              </strong>
            </p>
            <p className="mt-2" data-testid="test-payment-method">
              {t("onlinePayments.testPageMethod", { method: t(`onlinePayments.methods.${view.method}`) })}
            </p>
          </div>
          {view.status === "open" ? (
            <div className="flex flex-col gap-3">
              <Form method="post">
                <input type="hidden" name="intent" value="pay" />
                <SubmitButton intent="pay" busyLabel={t("payments.testPage.paying")} className="btn-primary w-full px-8 py-3 text-base">
                  {t("payments.testPage.pay")} {amount}
                </SubmitButton>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="fail" />
                <SubmitButton intent="fail" busyLabel={t("payments.testPage.paying")} className="btn-secondary w-full">
                  {t("payments.testPage.fail")}
                </SubmitButton>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="cancel" />
                <SubmitButton intent="cancel" busyLabel={t("payments.testPage.cancel")} className="btn-secondary w-full">
                  {t("payments.testPage.cancel")}
                </SubmitButton>
              </Form>
            </div>
          ) : (
            <div className="space-y-4">
              <AccountNotice kind="info">{t(view.isPaid ? "payments.testPage.closedPaid" : "payments.testPage.closedExpired")}</AccountNotice>
              <Link to={view.orderHref} className="btn-primary">
                {t("payments.testPage.toOrder")}
              </Link>
            </div>
          )}
        </section>
      </div>
    </>
  );
}
