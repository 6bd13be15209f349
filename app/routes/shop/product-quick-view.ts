import { data } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { parseProductId } from "#server/catalog/product.ts";
import { getProductPage, type ProductPageData } from "#server/catalog/product.service.ts";
import { promiseDeliveryByLead, type DeliveryPromise } from "#server/checkout/delivery-estimate.ts";
import { getDeliveryCalendar } from "#server/checkout/delivery-estimate.service.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import type { Route } from "./+types/product-quick-view";

/** What the quick view shows: the product page's data without the long texts and the related products. */
export type QuickViewProduct = Omit<ProductPageData, "fullDescription" | "technicalSheet" | "relatedIds" | "subcategory">;

export type QuickViewData = { product: QuickViewProduct | null; deliveryPromises?: Record<string, DeliveryPromise> };

function toQuickViewProduct(product: ProductPageData): QuickViewProduct {
  const { fullDescription, technicalSheet, relatedIds, subcategory, ...quickView } = product;
  return quickView;
}

/**
 * `/product/{id}/quick-view` (and /en/...): the product for the quick-view dialog, loaded by a fetcher.
 * A missing product answers 404 with `{ product: null }` (a value, so the page around the dialog stays).
 */
export async function loader({ params, url, context, request }: Route.LoaderArgs) {
  const id = parseProductId(params.id);
  const services = context.get(shopContext);
  const { db } = services;
  const [product, calendar] = await Promise.all([
    id === null ? null : getProductPage(db, id, localeOfPath(url.pathname), shopNowOf(services, request)),
    getDeliveryCalendar(db),
  ]);
  if (!product) return data<QuickViewData>({ product: null }, { status: 404 });
  // The same promise as the product page's, under the availability line.
  const deliveryPromises = promiseDeliveryByLead({ now: shopNowOf(services, request), calendar, variants: product.variants });
  return { product: toQuickViewProduct(product), deliveryPromises } satisfies QuickViewData;
}
