/** Every /api endpoint, in the order of the original client's calls (docs/rules.md#http-api): the router, the OpenAPI document and the docs page read this list. */
import { accountEndpoints } from "./account-api";
import type { ApiEndpoint } from "./api-route";
import { bundleEndpoints } from "./bundle-api";
import { catalogEndpoints } from "./catalog-api";
import { checkoutEndpoints } from "./checkout-api";
import { giftListEndpoints } from "./gift-list-api";
import { giftListPublicEndpoints } from "./gift-list-public-api";
import { giftCardEndpoints } from "./gift-card-api";
import { loyaltyEndpoints } from "./loyalty-api";

export const apiEndpoints: readonly ApiEndpoint[] = [
  ...catalogEndpoints,
  ...bundleEndpoints,
  ...accountEndpoints,
  ...giftListPublicEndpoints,
  ...giftListEndpoints,
  ...checkoutEndpoints,
  ...giftCardEndpoints,
  ...loyaltyEndpoints,
];
