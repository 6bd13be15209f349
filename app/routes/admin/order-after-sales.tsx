import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { ExchangeList } from "#app/ui/exchange-list.tsx";
import { TextField, CheckboxField } from "#app/ui/form-field.tsx";
import type { AfterSalesDetail, AdminReturn } from "#server/after-sales/after-sales-admin.service.ts";
import type { OrderView } from "#server/orders/order.service.ts";

/** The `?reso=` notices the page shows after an after-sales action. */
export const afterSalesDoneKeys = ["authorised", "refused", "received", "opened", "refunded", "paid-back"];

/** "12,50" for an amount field. */
const euroInput = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");

function Countdown({ row, locale }: { row: AdminReturn; locale: Locale }) {
  const { t } = useTranslation();
  if (row.daysLeft === null) return null;
  const date = formatShopDateTime(row.refundDueAt, locale, { dateStyle: "medium" });
  const text =
    row.daysLeft > 0
      ? t("afterSales.admin.countdown", { count: row.daysLeft, date })
      : row.daysLeft === 0
        ? t("afterSales.admin.countdownToday", { date })
        : t("afterSales.admin.countdownLate", { count: -row.daysLeft, date });
  return (
    <p className={`font-semibold ${row.daysLeft < 3 ? "text-coral-700" : ""}`} data-testid="refund-countdown">
      {text}
    </p>
  );
}

function ReturnCard({ row, locale }: { row: AdminReturn; locale: Locale }) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, locale);
  const hidden = <input type="hidden" name="returnId" value={row.id} />;
  return (
    <article className="rounded-xl border border-brand-100 bg-white p-4" aria-labelledby={`return-${row.number}`} data-testid="return">
      <h3 id={`return-${row.number}`} className="text-lg font-bold">
        {t("afterSales.admin.returnNumber", { number: row.number })} · {t(`afterSales.admin.reason.${row.reason}`)} ·{" "}
        <span data-testid="return-status">{t(`afterSales.admin.status.${row.status}`)}</span>
      </h3>
      <Countdown row={row} locale={locale} />
      <ul className="mt-2 list-disc pl-6">
        {row.lines.map((line) => (
          <li key={line.orderLineId}>
            {row.status === "received" || row.status === "refunded"
              ? t("afterSales.admin.receivedLine", {
                  name: `${line.name} (${line.sku})`,
                  quantity: line.quantity,
                  restocked: line.restocked,
                  damaged: line.damaged,
                })
              : `${line.name} (${line.sku}): ${t("afterSales.statement.units", { count: line.quantity })}`}
            {line.damageReason && ` · ${line.damageReason}`}
          </li>
        ))}
      </ul>
      <ExchangeList
        exchanges={row.exchanges}
        name={(orderLineId) => row.lines.find((line) => line.orderLineId === orderLineId)?.name ?? ""}
        orderHref={(id) => localizedHref(`/admin/ordini/${id}`, locale)}
      />
      {row.refusalReason && <p className="mt-2">{t("afterSales.admin.refusedBecause", { reason: row.refusalReason })}</p>}
      {row.refund && (
        <p className="mt-2 font-semibold" data-testid="refund-state">
          {t(`afterSales.admin.refund.${row.refund.status}`, {
            amount: money(row.refund.amountCents),
            attempts: row.refund.attempts,
            iban: row.refund.iban ?? "",
            date: row.refund.doneAt ? formatShopDateTime(row.refund.doneAt, locale) : "",
          })}
        </p>
      )}
      {row.refund?.status === "to_pay_back" && (
        <Form method="post" className="mt-3 flex flex-wrap items-center gap-3">
          <input type="hidden" name="refundId" value={row.refund.id} />
          <button type="submit" name="intent" value="refund-paid-back" className="btn-primary">
            {t("afterSales.admin.markPaidBack")}
          </button>
          <Link to={localizedHref("/admin/rimborsi", locale)} className="link">
            {t("afterSales.admin.toPayBack.title")}
          </Link>
        </Form>
      )}

      {row.status === "requested" && (
        <Form method="post" className="mt-3">
          {hidden}
          <button type="submit" name="intent" value="return-authorise" className="btn-primary">
            {t("afterSales.admin.authorise")}
          </button>
        </Form>
      )}
      {row.status === "authorised" && (
        <Form method="post" className="mt-3 space-y-3">
          {hidden}
          {row.lines.map((line) => (
            <div key={line.orderLineId} className="grid gap-3 sm:grid-cols-3">
              <TextField
                label={t("afterSales.admin.restocked", { name: line.name })}
                name={`restocked:${line.orderLineId}`}
                type="number"
                min={0}
                max={line.quantity}
                defaultValue={String(line.quantity)}
              />
              <TextField
                label={t("afterSales.admin.damaged", { name: line.name })}
                name={`damaged:${line.orderLineId}`}
                type="number"
                min={0}
                max={line.quantity}
                defaultValue="0"
              />
              <TextField label={t("afterSales.admin.damageReason", { name: line.name })} name={`damageReason:${line.orderLineId}`} maxLength={500} />
            </div>
          ))}
          <button type="submit" name="intent" value="return-receive" className="btn-primary">
            {t("afterSales.admin.receive")}
          </button>
        </Form>
      )}
      {(row.status === "requested" || row.status === "authorised") && (
        <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
          {hidden}
          <TextField label={t("afterSales.admin.refusalReason")} name="reason" maxLength={500} required className="min-w-64 flex-1" />
          <button type="submit" name="intent" value="return-refuse" className="btn-secondary">
            {t("afterSales.admin.refuse")}
          </button>
        </Form>
      )}
      {row.status === "received" && row.proposal?.lines.length === 0 && <p className="mt-2">{t("exchanges.admin.nothingToRefund")}</p>}
      {row.status === "received" && row.proposal && row.proposal.lines.length > 0 && (
        <Form method="post" className="mt-3 space-y-3" aria-label={t("afterSales.admin.refundTitle")}>
          {hidden}
          <h4 className="font-bold">{t("afterSales.admin.refundTitle")}</h4>
          <div className="grid gap-3 sm:grid-cols-2">
            {row.proposal.lines.map((line) => {
              const name = row.lines.find((candidate) => candidate.orderLineId === line.orderLineId)?.name ?? "";
              return (
                <TextField
                  key={line.orderLineId}
                  label={t("afterSales.admin.refundAmount", { name, max: money(line.maxCents) })}
                  name={`amount:${line.orderLineId}`}
                  inputMode="decimal"
                  defaultValue={euroInput(line.suggestedCents)}
                />
              );
            })}
          </div>
          {row.proposal.deliveryRefundable && row.proposal.shippingCents > 0 && (
            <CheckboxField
              label={t("afterSales.admin.refundDelivery", { amount: money(row.proposal.shippingCents) })}
              name="includeDelivery"
              defaultChecked
            />
          )}
          {row.proposal.route === "bank_transfer" && (
            <TextField
              label={t("afterSales.admin.iban")}
              name="iban"
              defaultValue={row.proposal.iban ?? ""}
              hint={row.proposal.iban ? undefined : t("afterSales.admin.ibanMissing")}
              required
              maxLength={50}
            />
          )}
          <button type="submit" name="intent" value="return-refund" className="btn-primary">
            {row.proposal.route === "card" ? t("afterSales.admin.refundCard") : t("afterSales.admin.refundBank")}
          </button>
        </Form>
      )}
    </article>
  );
}

/** Withdrawal statements (as received, unchangeable) and returns with their actions, on the back office's order page. */
export function AfterSalesSection({
  order,
  afterSales,
  locale,
  done,
  error,
}: {
  order: OrderView;
  afterSales: AfterSalesDetail;
  locale: Locale;
  done: string | null;
  error: string | null;
}) {
  const { t } = useTranslation();
  const openable = order.lines.filter((line) => line.variantId !== null);
  return (
    <section id="resi" aria-labelledby="after-sales-title" className="mt-6 space-y-4">
      <h2 id="after-sales-title" className="text-2xl font-bold">
        {t("afterSales.admin.title")}
      </h2>
      {afterSales.exchangeOf && (
        <p className="font-semibold" data-testid="exchange-of">
          <Link to={localizedHref(`/admin/ordini/${afterSales.exchangeOf.orderId}`, locale)} className="link">
            {t("exchanges.replacementOf", { number: afterSales.exchangeOf.orderNumber, returnNumber: afterSales.exchangeOf.returnNumber })}
          </Link>
        </p>
      )}
      {done && <Notice>{t(`afterSales.admin.done.${done}`)}</Notice>}
      {error && <FormAlert>{t(error)}</FormAlert>}
      <div className="rounded-xl border border-brand-100 bg-white p-4">
        <h3 className="text-lg font-bold">{t("afterSales.admin.statementsTitle")}</h3>
        {afterSales.statements.length === 0 ? (
          <p className="mt-2">{t("afterSales.admin.noStatements")}</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {afterSales.statements.map((statement) => (
              <li key={statement.id} data-testid="withdrawal-statement">
                <dl className="grid gap-x-4 sm:grid-cols-[auto_1fr]">
                  <dt className="font-semibold">{t("afterSales.statement.receivedAt")}</dt>
                  <dd>{formatShopDateTime(statement.receivedAt, locale, { dateStyle: "long", timeStyle: "medium" })}</dd>
                  <dt className="font-semibold">{t("afterSales.statement.name")}</dt>
                  <dd>{statement.name}</dd>
                  <dt className="font-semibold">{t("afterSales.statement.contact")}</dt>
                  <dd className="break-all">{t("afterSales.statement.contactByEmail", { email: statement.contactEmail })}</dd>
                  <dt className="font-semibold">{t("afterSales.statement.channel")}</dt>
                  <dd>{t(`afterSales.statement.channels.${statement.channel}`, { defaultValue: statement.channel })}</dd>
                  {statement.refundIban && (
                    <>
                      <dt className="font-semibold">{t("afterSales.statement.iban")}</dt>
                      <dd className="break-all">{statement.refundIban}</dd>
                    </>
                  )}
                </dl>
                <ul className="mt-1 list-disc pl-6">
                  {statement.lines.map((line) => (
                    <li key={line.orderLineId}>
                      {line.name} ({line.sku}): {t("afterSales.statement.units", { count: line.quantity })}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </div>
      <h3 className="text-lg font-bold">{t("afterSales.admin.returnsTitle")}</h3>
      {afterSales.returns.length === 0 ? (
        <p>{t("afterSales.admin.noReturns")}</p>
      ) : (
        afterSales.returns.map((row) => <ReturnCard key={row.id} row={row} locale={locale} />)
      )}
      {openable.length > 0 && (
        <details className="rounded-xl border border-brand-100 bg-white p-4">
          <summary className="cursor-pointer font-bold">{t("afterSales.admin.openFaulty")}</summary>
          <Form method="post" className="mt-3 space-y-3">
            <div className="grid gap-3 sm:grid-cols-2">
              {openable.map((line) => (
                <TextField
                  key={line.id}
                  label={t("afterSales.admin.faultyQuantity", { name: line.name })}
                  name={`faulty:${line.id}`}
                  type="number"
                  min={0}
                  max={line.quantity}
                  defaultValue="0"
                />
              ))}
            </div>
            {order.payment.method !== "card" && <TextField label={t("afterSales.admin.iban")} name="iban" maxLength={50} />}
            <button type="submit" name="intent" value="return-open-faulty" className="btn-secondary">
              {t("afterSales.admin.openFaultySubmit")}
            </button>
          </Form>
        </details>
      )}
    </section>
  );
}
