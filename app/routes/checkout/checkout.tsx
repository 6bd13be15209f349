import crypto from "node:crypto";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useFetcher, useLocation, useNavigation } from "react-router";
import { z } from "zod";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import {
  deliveryChoices,
  DeliveryChoices,
  GiftListDelivery,
  isPaymentChoiceOffered,
  paymentChoices,
  PaymentChoices,
  type DeliveryChoice,
  type PaymentChoice,
} from "#app/ui/checkout-choices.tsx";
import {
  addressFieldNames,
  CheckoutErrorSummary,
  CheckoutField,
  CheckoutSection,
  checkoutFieldId,
  type CheckoutErrors,
} from "#app/ui/checkout-fields.tsx";
import { CheckoutInvoice } from "#app/ui/checkout-invoice.tsx";
import { CheckoutSummaryPanel } from "#app/ui/checkout-summary.tsx";
import { DiscountCodeField, discountRefusalText } from "#app/ui/discount-code.tsx";
import { LoyaltyPointsField } from "#app/ui/loyalty-points-field.tsx";
import { useFormatPrice } from "#app/ui/price.tsx";
import { BagIcon } from "#app/ui/icons.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { useHydrated } from "#app/ui/use-hydrated.ts";
import { getAddress, listAddresses, type Address } from "#server/accounts/address.service.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { getAccountProfile } from "#server/accounts/profile.service.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { deliveryMethods, paymentChoices as acceptedPaymentChoices, paymentOfChoice } from "#server/orders/order-methods.ts";
import { addressFields, checkoutFormValues, parseCheckoutForm, type checkoutFields } from "#server/checkout/checkout.inputs.ts";
import { GiftCardField } from "#app/ui/gift-card-field.tsx";
import { placeOrderAndStartPayment } from "#server/checkout/checkout-payment.service.ts";
import { takesCardPayments } from "#server/payments/payment-provider.ts";
import { takesScalapayPayments } from "#server/payments/scalapay.ts";
import { getCheckoutSummary, isGiftListCart } from "#server/checkout/checkout.service.ts";
import { isVoucherOnlyCart } from "#server/vouchers/voucher.service.ts";
import { CartVouchers } from "#app/ui/cart-vouchers.tsx";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { shopContext } from "#server/http/context.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/checkout";

/** The choices the summary depends on, read leniently (query of the summary fetcher, or the form). */
const SummaryChoices = z.object({
  postcode: z
    .string()
    .trim()
    .regex(/^[0-9]{5}$/)
    .nullable()
    .catch(null),
  deliveryMethod: z.enum(deliveryMethods).nullable().catch(null),
  paymentMethod: z.enum(acceptedPaymentChoices).nullable().catch(null),
  discountCode: z.string().trim().max(100).nullable().catch(null),
  giftCardCode: z.string().trim().max(40).nullable().catch(null),
  loyaltyPoints: z.coerce.number().int().min(0).max(10_000_000).nullable().catch(null),
});

type FormValues = Partial<Record<(typeof checkoutFields)[number], string>>;

function summaryFor(
  services: ShopServices,
  request: Request,
  locale: Locale,
  raw: Record<string, unknown>,
  user: { id: string; email: string } | null,
) {
  const choices = SummaryChoices.parse({
    postcode: raw.postcode ?? null,
    deliveryMethod: raw.deliveryMethod ?? null,
    paymentMethod: raw.paymentMethod ?? null,
    discountCode: raw.discountCode ?? null,
    giftCardCode: raw.giftCardCode ?? null,
    loyaltyPoints: raw.loyaltyPoints ?? null,
  });
  const { cartId } = readCartRequest(request, services);
  const chosen = choices.paymentMethod ? paymentOfChoice(choices.paymentMethod) : null;
  return getCheckoutSummary(services.db, {
    cartId,
    locale,
    now: shopNowOf(services, request),
    postcode: choices.postcode,
    delivery: choices.deliveryMethod,
    payment: chosen?.paymentMethod ?? null,
    discountCode: choices.discountCode,
    userId: user?.id ?? null,
    // The e-mail typed in the form, else the account's: a code's uses per customer count both.
    email: typeof raw.email === "string" && raw.email.includes("@") ? raw.email.trim() : (user?.email ?? null),
    cardPayments: takesCardPayments(services),
    scalapayPayments: takesScalapayPayments(services.env),
    giftCardCode: choices.giftCardCode,
    loyaltyPoints: choices.loyaltyPoints,
  });
}

const addressValues = (address: Address) =>
  Object.fromEntries(addressFields.map((field) => [field, address[field]])) as Record<(typeof addressFields)[number], string>;

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "orderSummary",
    "checkout",
    "bundles.order",
    "checkoutErrors",
    "order",
    "delivery",
    "invoices.checkout",
    "onlinePayments",
    "customerMails.checkoutNotice",
    "giftCards.summary",
    "giftCards.checkout",
    "vouchers.checkout",
    "vouchers.cart",
    "vouchers.summaryLine",
    "giftCards.errors",
    "loyalty.checkout",
    "loyalty.summaryLine",
    "loyalty.stepOption",
    "loyalty.errors",
  ],
} satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const { db } = services;
  const locale = localeOfPath(url.pathname);
  const user = await getSessionUser(context, request);
  const [profile, addresses] = await Promise.all([user ? getAccountProfile(db, user.id) : null, user ? listAddresses(db, user.id) : []]);
  // A customer starts from their profile and default address; the summary from that postcode.
  const home = addresses[0];
  const [firstName = "", ...lastNames] = (profile?.name ?? "").trim().split(/\s+/);
  const prefill: FormValues = profile
    ? {
        firstName: home?.firstName ?? firstName,
        lastName: home?.lastName ?? lastNames.join(" "),
        email: profile.email,
        phone: profile.phone ?? home?.phone ?? "",
        // Ready for a private person's invoice; asked for only when that is chosen.
        fiscalCode: profile.fiscalCode ?? "",
        ...(home ? { savedAddressId: String(home.id), ...addressValues(home) } : {}),
      }
    : {};
  const query = Object.fromEntries(url.searchParams);
  // A code applied in the cart comes along in the address (?discountCode=): the form starts with it.
  if (query.discountCode) prefill.discountCode = query.discountCode.slice(0, 100);
  const summary = await summaryFor(services, request, locale, { postcode: prefill.postcode, email: prefill.email, ...query }, user);
  return {
    meta: getPageMetaTexts(locale, "checkout"),
    summary,
    /** One per rendering of the page: the same order submitted twice is placed once. */
    idempotencyKey: crypto.randomUUID(),
    prefill,
    isCustomer: Boolean(user),
    addresses: addresses.map((address) => ({ id: address.id, label: address.label, ...addressValues(address) })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

export type CheckoutProblem = {
  code: string;
  lines: { variantId: number; name: string; available: number }[];
  /** Said as it is (a voucher line's refusal). */ message?: string;
};

export async function action({ request, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const user = await getSessionUser(context, request);
  const answer = async (values: FormValues, errors: CheckoutErrors | null, problem: CheckoutProblem | null, status: number) =>
    data({ values, errors, problem, summary: await summaryFor(services, request, locale, values, user) }, { status });

  // "Aggiorna riepilogo" without JavaScript: the same page again, priced for the choices made.
  if (form.get("intent") === "update") {
    const values = checkoutFormValues(form);
    const saved = user && values.savedAddressId ? await getAddress(services.db, user.id, values.savedAddressId) : null;
    return answer(saved ? { ...values, ...addressValues(saved) } : values, null, null, 200);
  }

  const { cartId } = readCartRequest(request, services);
  // A gift-list cart's form has no address: the order goes where the list says.
  // Nor has a cart of gift cards only: nothing is delivered (decision 0106).
  const parsed = parseCheckoutForm(form, locale, {
    giftList: (await isGiftListCart(services.db, cartId)) || (await isVoucherOnlyCart(services.db, cartId)),
  });
  if (!parsed.ok) return answer(parsed.values, parsed.errors, null, 400);

  const outcome = await placeOrderAndStartPayment(services, {
    cartId,
    userId: user?.id ?? null,
    locale,
    input: parsed.input,
    // The shop's clock: journeys move it to see the promise the order keeps (server/http/shop-clock.ts).
    now: shopNowOf(services, request),
    publicUrl: services.publicUrl,
    secret: resolveAuthSecret(services.env),
    cardPayments: takesCardPayments(services),
    scalapayPayments: takesScalapayPayments(services.env),
  });
  if (!outcome.ok) {
    // A code's or the points' refusal (discount, gift card, loyalty points) shows beside its field, not as the page's problem.
    const byField = outcome.error === "discount-code" || outcome.error === "gift-card" || outcome.error === "loyalty-points";
    const problem = byField
      ? null
      : { code: outcome.error, lines: outcome.lines, ...(outcome.error === "voucher" ? { message: outcome.message } : {}) };
    return answer(checkoutFormValues(form), byField ? outcome.fields : null, problem, outcome.status);
  }
  // Without a payment session the order waits on its page, which offers "Paga ora" again.
  if (outcome.payment && !outcome.payment.ok) return redirect(`${outcome.orderHref}&pagamento=non-disponibile`, 303);
  return redirect(outcome.payment?.redirectUrl ?? outcome.orderHref, 303);
}

const asDelivery = (value: string | undefined | null): DeliveryChoice | null => deliveryChoices.find((method) => method === value) ?? null;
const asPayment = (value: string | undefined | null): PaymentChoice | null => paymentChoices.find((method) => method === value) ?? null;

type SummaryChoiceName = "postcode" | "deliveryMethod" | "paymentMethod" | "discountCode" | "giftCardCode" | "loyaltyPoints";

function EmptyCheckout({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-md rounded-2xl bg-white p-8 text-center shadow-card">
      <BagIcon size={48} className="mx-auto text-brand-700" />
      <h2 className="mt-4 text-xl font-bold">{t("checkout.emptyTitle")}</h2>
      <p className="mt-2 text-muted">{t("checkout.emptyText")}</p>
      <Link to={localizedHref("/shop", locale)} className="btn-primary mt-6">
        {t("checkout.emptyCta")}
      </Link>
    </div>
  );
}

/** Why the order was not placed (stock, delivery, payment...), with the lines short of stock. */
function ProblemNotice({ problem, locale }: { problem: CheckoutProblem; locale: Locale }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [problem]);
  const message =
    problem.message ??
    (problem.code === "unknown" ? t("checkout.errors.unknown") : t(`checkoutErrors.${problem.code}`, { defaultValue: t("checkout.errors.unknown") }));
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="rounded-2xl border-2 border-coral-600 bg-coral-50 p-4 sm:p-5" data-testid="checkout-problem">
      <p className="font-bold text-coral-700">{message}</p>
      {problem.lines.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {problem.lines.map((line) => (
            <li key={line.variantId}>
              {line.available > 0
                ? t("checkout.leftLine", { name: line.name, count: line.available })
                : t("checkout.soldOutLine", { name: line.name })}
            </li>
          ))}
        </ul>
      )}
      {["out-of-stock", "unavailable-product", "gift-list-closed", "gift-list-shortfall", "empty-cart", "voucher"].includes(problem.code) && (
        <Link to={localizedHref("/cart", locale)} className="btn-secondary mt-3">
          {t("checkout.backToCart")}
        </Link>
      )}
    </div>
  );
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const shop = useRootData()?.shop;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<typeof loader>();
  const formRef = useRef<HTMLFormElement>(null);

  const values: FormValues = actionData?.values ?? loaderData.prefill;
  const errors: CheckoutErrors = actionData?.errors ?? {};
  const problem = actionData?.problem ?? null;
  // The key of this rendering of the form; a refused attempt keeps its own.
  const [idempotencyKey] = useState(values.idempotencyKey || loaderData.idempotencyKey);
  const [summary, setSummary] = useState(actionData?.summary ?? loaderData.summary);
  useEffect(() => {
    if (actionData?.summary) setSummary(actionData.summary);
  }, [actionData]);
  useEffect(() => {
    if (fetcher.data?.summary) setSummary(fetcher.data.summary);
  }, [fetcher.data]);
  const [delivery, setDelivery] = useState(asDelivery(values.deliveryMethod));
  const [payment, setPayment] = useState(asPayment(values.paymentMethod));
  const [savedAddressId, setSavedAddressId] = useState(values.savedAddressId ?? "");
  const format = useFormatPrice();
  const discountCodeError =
    errors.discountCode ??
    (summary.discountCodeError ? discountRefusalText(t, summary.discountCodeError, summary.discountCodeMinOrderCents, format) : undefined);

  if ((summary.cart.lines.length === 0 && summary.vouchers.length === 0) || !shop) {
    return (
      <>
        <PageHeader title={t("checkout.title")} />
        <div className="px-4 py-10">
          <EmptyCheckout locale={locale} />
        </div>
      </>
    );
  }

  // A choice the server's latest answer rules out is shown unchosen (and is refused if sent anyway).
  const deliveryShown = delivery && summary.deliveries.find((quote) => quote.method === delivery)?.available ? delivery : null;
  const paymentShown = payment && isPaymentChoiceOffered(summary, payment) ? payment : null;
  const placing = navigation.state !== "idle" && navigation.formData?.get("intent") === "place";
  const checkoutPath = localizedHref("/checkout", locale);

  /** With JavaScript the summary follows each choice: the loader prices it again. */
  const refreshSummary = (changes: Partial<Record<SummaryChoiceName, string | null>>) => {
    const postcodeInput = formRef.current?.elements.namedItem("postcode");
    const codeInput = formRef.current?.elements.namedItem("discountCode");
    const cardInput = formRef.current?.elements.namedItem("giftCardCode");
    const pointsInput = formRef.current?.elements.namedItem("loyaltyPoints");
    const choices = {
      postcode: postcodeInput instanceof HTMLInputElement ? postcodeInput.value.trim() : "",
      discountCode: codeInput instanceof HTMLInputElement ? codeInput.value.trim() : "",
      giftCardCode: cardInput instanceof HTMLInputElement ? cardInput.value.trim() : "",
      loyaltyPoints: pointsInput instanceof HTMLSelectElement && pointsInput.value !== "0" ? pointsInput.value : "",
      deliveryMethod: delivery ?? "",
      paymentMethod: payment ?? "",
      ...changes,
    };
    const query = new URLSearchParams(Object.entries(choices).filter((entry): entry is [string, string] => Boolean(entry[1])));
    // The new summary arrives through fetcher.data; the promise only says when.
    void fetcher.load(`${checkoutPath}?${query}`);
  };

  const chooseSavedAddress = (id: string) => {
    setSavedAddressId(id);
    const address = loaderData.addresses.find((candidate) => String(candidate.id) === id);
    const form = formRef.current;
    if (!address || !form) return;
    for (const field of addressFieldNames) {
      const input = form.elements.namedItem(field);
      if (input instanceof HTMLInputElement) input.value = address[field];
    }
    refreshSummary({ postcode: address.postcode });
  };

  const labels: Record<string, string> = {
    firstName: t("checkout.fields.firstName"),
    lastName: t("checkout.fields.lastName"),
    email: t("checkout.fields.email"),
    phone: t("checkout.fields.phone"),
    deliveryMethod: t("checkout.delivery.title"),
    paymentMethod: t("checkout.payment.title"),
    savedAddressId: t("checkout.fields.savedAddress"),
    street: t("checkout.fields.street"),
    houseNumber: t("checkout.fields.houseNumber"),
    postcode: t("checkout.fields.postcode"),
    city: t("checkout.fields.city"),
    province: t("checkout.fields.province"),
    invoiceKind: t("invoices.checkout.kindLegend"),
    fiscalCode: t("invoices.checkout.fiscalCode"),
    companyName: t("checkout.fields.companyName"),
    vatNumber: t("checkout.fields.vatNumber"),
    sdiCode: t("checkout.fields.sdiCode"),
    pec: t("checkout.fields.pec"),
    acceptTerms: t("checkout.fields.terms"),
    discountCode: t("checkout.discount.label"),
  };
  const field = (name: string) => ({ name, label: labels[name] ?? name, error: errors[name], defaultValue: values[name as keyof FormValues] ?? "" });

  return (
    <>
      <PageHeader title={t("checkout.title")}>
        <p>{t("checkout.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
        <Form
          ref={formRef}
          method="post"
          action={checkoutPath}
          noValidate
          className="group/checkout grid gap-6 lg:grid-cols-[1fr_24rem] lg:items-start"
          aria-label={t("checkout.title")}
        >
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <div className="space-y-6">
            {problem && <ProblemNotice problem={problem} locale={locale} />}
            <CheckoutErrorSummary errors={errors} labels={labels} />
            {!problem && summary.blocker && summary.blocker !== "empty-cart" && (
              <ProblemNotice problem={{ code: summary.blocker, lines: [] }} locale={locale} />
            )}
            {!loaderData.isCustomer && (
              <p className="text-sm">
                {t("checkout.hasAccount")}{" "}
                <Link to={`${localizedHref("/login-register", locale)}?${new URLSearchParams({ redirectTo: checkoutPath })}`} className="link">
                  {t("checkout.login")}
                </Link>
              </p>
            )}
            <p className="text-sm text-muted">{t("checkout.required")}</p>

            <CheckoutSection title={t("checkout.contact.title")}>
              <div className="grid gap-4 sm:grid-cols-2">
                <CheckoutField {...field("firstName")} autoComplete="given-name" required maxLength={100} />
                <CheckoutField {...field("lastName")} autoComplete="family-name" required maxLength={100} />
                <CheckoutField
                  {...field("email")}
                  type="email"
                  autoComplete="email"
                  required
                  maxLength={254}
                  hint={`${t("checkout.fields.emailHint")} ${t("customerMails.checkoutNotice")}`}
                />
                <CheckoutField {...field("phone")} type="tel" autoComplete="tel" required maxLength={30} hint={t("checkout.fields.phoneHint")} />
              </div>
            </CheckoutSection>

            {summary.voucherOnly ? (
              <CheckoutSection title={t("checkout.delivery.title")}>
                <input type="hidden" name="deliveryMethod" value="collection" />
                <p>{t("vouchers.checkout.noDelivery")}</p>
              </CheckoutSection>
            ) : summary.giftList ? (
              <GiftListDelivery giftList={summary.giftList} summary={summary} shop={shop} locale={locale} />
            ) : (
              <DeliveryChoices
                summary={summary}
                value={deliveryShown}
                onChange={(method) => {
                  setDelivery(method);
                  refreshSummary({ deliveryMethod: method });
                }}
                shop={shop}
                error={errors.deliveryMethod}
              />
            )}

            {/* A gift-list order goes to the list's address, which the giver never sees. */}
            {!summary.giftList && !summary.voucherOnly && (
              <>
                {/* Not needed for collection: hidden by CSS alone, so it also works before JavaScript. */}
                <CheckoutSection
                  title={t("checkout.address.title")}
                  className="group-has-[#checkout-deliveryMethod-collection:checked]/checkout:group-has-[#checkout-invoiceKind-none:checked]/checkout:hidden"
                >
                  {loaderData.addresses.length > 0 && (
                    <div className="mb-4">
                      <label htmlFor={checkoutFieldId("savedAddressId")} className="field-label">
                        {labels.savedAddressId}
                      </label>
                      <select
                        id={checkoutFieldId("savedAddressId")}
                        name="savedAddressId"
                        value={savedAddressId}
                        onChange={(event) => chooseSavedAddress(event.target.value)}
                        aria-invalid={errors.savedAddressId ? true : undefined}
                        aria-describedby={errors.savedAddressId ? `${checkoutFieldId("savedAddressId")}-error` : undefined}
                        className="field-input"
                      >
                        {loaderData.addresses.map((address) => (
                          <option key={address.id} value={address.id}>
                            {[address.label, `${address.street} ${address.houseNumber}, ${address.postcode} ${address.city}`]
                              .filter(Boolean)
                              .join(": ")}
                          </option>
                        ))}
                        <option value="">{t("checkout.fields.newAddress")}</option>
                      </select>
                      {errors.savedAddressId && (
                        <p id={`${checkoutFieldId("savedAddressId")}-error`} className="field-error">
                          {errors.savedAddressId}
                        </p>
                      )}
                    </div>
                  )}
                  <div
                    className="grid gap-4 sm:grid-cols-[1fr_10rem]"
                    onChange={(event) => {
                      // Typing over a saved address makes it a new one.
                      const name = (event.target as HTMLInputElement).name;
                      if (savedAddressId && (addressFieldNames as readonly string[]).includes(name)) setSavedAddressId("");
                    }}
                  >
                    <CheckoutField {...field("street")} autoComplete="address-line1" required maxLength={120} />
                    <CheckoutField {...field("houseNumber")} required maxLength={20} />
                    <CheckoutField
                      {...field("postcode")}
                      autoComplete="postal-code"
                      inputMode="numeric"
                      required
                      maxLength={5}
                      hint={t("checkout.fields.postcodeHint")}
                      onChange={(event) => {
                        const postcode = event.target.value.trim();
                        if (postcode === "" || /^[0-9]{5}$/.test(postcode)) refreshSummary({ postcode });
                      }}
                    />
                    <div aria-hidden="true" className="hidden sm:block" />
                    <CheckoutField {...field("city")} autoComplete="address-level2" required maxLength={100} />
                    <CheckoutField
                      {...field("province")}
                      autoComplete="address-level1"
                      required
                      maxLength={2}
                      hint={t("checkout.fields.provinceHint")}
                    />
                  </div>
                </CheckoutSection>
                <p className="hidden rounded-xl bg-brand-50 px-4 py-3 text-sm group-has-[#checkout-deliveryMethod-collection:checked]/checkout:group-has-[#checkout-invoiceKind-none:checked]/checkout:block">
                  {t("checkout.address.notNeeded")}
                </p>
              </>
            )}

            {/* A gift-list order goes to the family's address, which must not appear on the giver's invoice. */}
            {!summary.giftList && !summary.voucherOnly && <CheckoutInvoice field={field} values={values} error={errors.invoiceKind} />}

            <PaymentChoices
              summary={summary}
              value={paymentShown}
              onChange={(method) => {
                setPayment(method);
                refreshSummary({ paymentMethod: method });
              }}
              error={errors.paymentMethod}
            />
          </div>

          <div className="space-y-4 lg:sticky lg:top-4">
            <CheckoutSummaryPanel summary={summary} updating={fetcher.state !== "idle"} />
            {summary.vouchers.length > 0 && (
              <div className="rounded-2xl bg-white px-5 shadow-card">
                <CartVouchers vouchers={summary.vouchers} locale={locale} removable={false} />
                {!summary.voucherOnly && <p className="pb-4 text-sm text-muted">{t("vouchers.checkout.giftCardNotForVouchers")}</p>}
              </div>
            )}
            <DiscountCodeField
              defaultValue={values.discountCode ?? ""}
              error={discountCodeError}
              applied={summary.discountCode}
              onApply={hydrated ? (code) => refreshSummary({ discountCode: code }) : undefined}
              submitIntent="update"
              id={checkoutFieldId("discountCode")}
            />
            {!summary.voucherOnly && (
              <GiftCardField
                defaultValue={values.giftCardCode ?? ""}
                error={errors.giftCardCode ?? (summary.giftCardError ? t(`giftCards.errors.${summary.giftCardError}`) : undefined)}
                applied={summary.giftCard}
                paidInFull={summary.giftCard !== null && summary.giftCard.cents === summary.totalCents}
                onApply={hydrated ? (code) => refreshSummary({ giftCardCode: code }) : undefined}
                submitIntent="update"
                id={checkoutFieldId("giftCardCode")}
              />
            )}
            {summary.loyalty && (
              <LoyaltyPointsField
                loyalty={summary.loyalty}
                defaultValue={String(summary.loyalty.points)}
                error={errors.loyaltyPoints ?? (summary.loyaltyError ? t(`loyalty.errors.${summary.loyaltyError}`) : undefined)}
                onChoose={hydrated ? (points) => refreshSummary({ loyaltyPoints: points }) : undefined}
              />
            )}
            {!hydrated && (
              <div className="rounded-2xl bg-white p-4 shadow-card">
                <p id="update-hint" className="text-sm text-muted">
                  {t("checkout.summary.updateHint")}
                </p>
                <button type="submit" name="intent" value="update" className="btn-secondary mt-2 w-full" aria-describedby="update-hint">
                  {t("checkout.summary.update")}
                </button>
              </div>
            )}
            <div className="rounded-2xl bg-white p-5 shadow-card">
              <div className="flex items-start gap-3">
                <input
                  id={checkoutFieldId("acceptTerms")}
                  type="checkbox"
                  name="acceptTerms"
                  defaultChecked={values.acceptTerms === "on" || values.acceptTerms === "true"}
                  aria-invalid={errors.acceptTerms ? true : undefined}
                  aria-describedby={errors.acceptTerms ? `${checkoutFieldId("acceptTerms")}-error` : undefined}
                  className="mt-1 size-5 shrink-0 accent-brand-700"
                />
                <label htmlFor={checkoutFieldId("acceptTerms")}>
                  {t("checkout.fields.acceptTerms")}{" "}
                  <a href={`${localizedHref("/centroassistenza", locale)}#condizionidivedita`} target="_blank" rel="noopener" className="link">
                    {t("checkout.fields.termsLink")}
                    <span className="sr-only"> {t("checkout.fields.newTab")}</span>
                  </a>
                  <span aria-hidden="true" className="text-coral-700">
                    {" "}
                    *
                  </span>
                </label>
              </div>
              {errors.acceptTerms && (
                <p id={`${checkoutFieldId("acceptTerms")}-error`} className="field-error">
                  {errors.acceptTerms}
                </p>
              )}
              <button
                type="submit"
                name="intent"
                value="place"
                disabled={placing}
                className="btn-coral mt-4 w-full py-3 text-base disabled:cursor-wait disabled:opacity-70"
              >
                {placing ? t("checkout.placing") : t("checkout.placeOrder")}
              </button>
            </div>
          </div>
        </Form>
      </div>
    </>
  );
}
