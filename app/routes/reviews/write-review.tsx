import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { z } from "zod";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { TextField } from "#app/ui/form-field.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { reviewLimits } from "#common/review-limits.ts";
import { getReviewForm, writeReview } from "#server/reviews/review.service.ts";
import { reviewerProofOf } from "./review-request.server";
import type { Route } from "./+types/write-review";

/** The messages this page renders (app/lib/route-messages.ts); the errors arrive as keys from the server. */
export const handle = { messages: ["reviews.form", "reviews.errors", "reviews.state"] } satisfies MessagesHandle;

const Params = z.object({ orderId: z.uuid(), productId: z.coerce.number().int().positive().max(2_147_483_647) });

/** The order and product of the address, for the buyer only: anyone else gets the 404 of a missing page. */
async function openForm({ params, url, request, context }: Pick<Route.LoaderArgs, "params" | "url" | "request" | "context">) {
  const parsed = Params.safeParse(params);
  if (!parsed.success) throw data(null, { status: 404 });
  const { orderId, productId } = parsed.data;
  const proof = await reviewerProofOf(context, request, url, orderId);
  const form = await getReviewForm(context.get(shopContext).db, { orderId, productId, proof });
  if (!form.ok && form.error === "not-found") throw data(null, { status: 404 });
  return { orderId, productId, proof, form };
}

export async function loader(args: Route.LoaderArgs) {
  const { form } = await openForm(args);
  const locale = localeOfPath(args.url.pathname);
  const t = getTranslator(locale);
  return {
    meta: { title: t("reviews.form.metaTitle"), description: t("reviews.form.metaDescription") },
    view: form.ok ? form.view : null,
    notDelivered: !form.ok,
    sent: args.url.searchParams.get("inviata") === "1",
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

export async function action(args: Route.ActionArgs) {
  const { orderId, productId, proof } = await openForm(args);
  const fields = formFields(await args.request.formData());
  const locale = localeOfPath(args.url.pathname);
  const result = await writeReview(args.context.get(shopContext).db, { orderId, productId, proof, locale, raw: fields });
  if (result.ok) {
    const back = new URL(args.url);
    back.searchParams.set("inviata", "1");
    return redirect(`${back.pathname}${back.search}`, 303);
  }
  if (result.error === "not-found") throw data(null, { status: 404 });
  if (result.error === "invalid") return data({ error: null, fields: result.fields, values: fields }, { status: 400 });
  const noFieldErrors: Record<string, string> = {};
  return data({ error: result.error, fields: noFieldErrors, values: fields }, { status: 409 });
}

function Alert({ children }: { children: string }) {
  return (
    <p role="alert" className="rounded-xl border-2 border-coral-600 bg-coral-50 p-4 font-semibold text-coral-700">
      {children}
    </p>
  );
}

function Notice({ children }: { children: string }) {
  return (
    <p role="status" className="rounded-xl border-2 border-brand-600 bg-brand-50 p-4 font-semibold text-brand-800">
      {children}
    </p>
  );
}

export default function WriteReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { view, notDelivered, sent } = loaderData;
  const { pathname, search } = useLocation();
  const locale: Locale = localeOfPath(pathname);
  // Back to the order the way the visitor came: with the order link's token, or signed in.
  const token = new URLSearchParams(search).get("t");
  const orderHref = (orderId: string) => `${localizedHref(`/ordine/${orderId}`, locale)}${token ? `?t=${encodeURIComponent(token)}` : ""}`;
  const limits = { min: reviewLimits.textMin, max: reviewLimits.textMax };
  if (notDelivered || !view) {
    return (
      <>
        <PageHeader title={t("reviews.form.metaTitle")} />
        <div className="mx-auto max-w-2xl px-4 py-8">
          <Alert>{t("reviews.errors.not-delivered")}</Alert>
        </div>
      </>
    );
  }
  const fieldError = (name: string) => {
    const key = actionData?.fields[name];
    return key ? t(key, limits) : undefined;
  };
  const starsError = fieldError("stars");
  return (
    <>
      <PageHeader title={t("reviews.form.title", { product: view.product.name })}>
        <p>{t("reviews.form.fromOrder", { number: view.order.number })}</p>
      </PageHeader>
      <div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
        {sent && <Notice>{t("reviews.form.sent")}</Notice>}
        {actionData?.error && <Alert>{t(`reviews.errors.${actionData.error}`)}</Alert>}
        {view.written ? (
          <section className="rounded-2xl bg-white p-5 shadow-card">
            {!sent && <p className="font-semibold">{t("reviews.form.alreadyWritten")}</p>}
            <p className="mt-2 text-sm text-muted">{t(`reviews.state.${view.written.status}`)}</p>
            <p className="mt-2 text-sm">
              {t("reviews.form.yourReview", { stars: view.written.stars, date: formatDate(view.written.createdAt, locale) })}
            </p>
            <p className="mt-1 whitespace-pre-line">{view.written.body}</p>
          </section>
        ) : (
          <Form method="post" className="space-y-5 rounded-2xl bg-white p-5 shadow-card" noValidate>
            <fieldset aria-describedby={starsError ? "review-stars-error" : undefined}>
              <legend className="field-label">
                {t("reviews.form.stars")}
                <span aria-hidden="true" className="text-coral-700">
                  {" "}
                  *
                </span>
              </legend>
              <div className="mt-1 flex flex-wrap gap-2">
                {[5, 4, 3, 2, 1].map((stars) => (
                  <label
                    key={stars}
                    className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-brand-100 px-3 has-checked:border-brand-700 has-checked:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name="stars"
                      value={stars}
                      required
                      defaultChecked={actionData?.values.stars === String(stars)}
                      className="size-5 accent-brand-700"
                    />
                    <span aria-hidden="true" className="text-amber-700">
                      {"★".repeat(stars)}
                    </span>
                    <span>{t("reviews.form.starsOption", { count: stars })}</span>
                  </label>
                ))}
              </div>
              {starsError && (
                <p id="review-stars-error" className="field-error">
                  {starsError}
                </p>
              )}
            </fieldset>
            <TextField
              multiline
              label={t("reviews.form.text")}
              name="text"
              required
              rows={6}
              maxLength={reviewLimits.textMax}
              defaultValue={actionData?.values.text ?? ""}
              hint={t("reviews.form.textHint", { ...limits, author: view.authorName })}
              error={fieldError("text")}
            />
            <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
              {t("reviews.form.submit")}
            </button>
          </Form>
        )}
        <p>
          <Link to={orderHref(view.order.id)} className="link">
            {t("reviews.form.backToOrder")}
          </Link>
        </p>
      </div>
    </>
  );
}
