import {
  connectGatewayBodySchema,
  createGradeBodySchema,
  createProductBodySchema,
  doneSchema,
  feedQuerySchema,
  gatewayPlansSchema,
  gradeAnswerSchema,
  gradeDashboardSchema,
  gradeFeedSchema,
  gradeParamsSchema,
  gradeVisibilityParamsSchema,
  merchantAccountSchema,
  merchantDashboardSchema,
  productDashboardSchema,
  productFeedSchema,
  productStockAnswerSchema,
  productStockGradeParamsSchema,
  productStockParamsSchema,
  productStockVisibilityParamsSchema,
  registerMerchantBodySchema,
  updateGradeCostBodySchema,
  updateGradeDisplayBodySchema,
  updateGradePlanBodySchema,
  updateGradeSubscriptionBodySchema,
  updateMerchantBodySchema,
  updateProductDisplayBodySchema,
} from '../schemas/merchant';
import { defineRoute } from './define-route';

/**
 * The storefront's merchant side (functions/penpay/; the shop's side is store.ts): the merchant
 * account and its Braintree connection, products and their grades, and the dashboards. These
 * routes act on the caller's own merchant account only (another merchant's product or grade
 * answers 404). Every gateway call uses the merchant's own Braintree keys.
 */
const PREFIX = '/api/i/penpay';
/** Routes that wait on the merchant's gateway: a few of its calls in a row, each given up on well before API Gateway's 29 s. */
const GATEWAY_ROUTE_TIMEOUT_SECONDS = 25;

// ---------------------------------------------------------------------------------------------
// Screens and reads

export const showMerchantDashboard = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/screen/dashboard`,
  access: 'user',
  handler: 'penpay/show-merchant-dashboard',
  summary:
    "The merchant dashboard: the caller's merchant account, sales, units and revenue day by day over the last 30 days (precomputed as each payment is recorded), active and past-due subscriptions, the latest sales and the product counts. 404 when the caller has no merchant account.",
  response: merchantDashboardSchema,
  capabilities: { bucket: 'read' },
});

export const showProductDashboard = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/screen/product/{productStockId}`,
  access: 'user',
  handler: 'penpay/show-product-dashboard',
  summary:
    "One product's dashboard: the product, its grades, its 30 days of figures, subscriptions and latest sales. 404 for another merchant's product.",
  params: productStockParamsSchema,
  response: productDashboardSchema,
  capabilities: { bucket: 'read' },
});

export const showGradeDashboard = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/screen/product/{productStockId}/grade/{productStockGradeId}`,
  access: 'user',
  handler: 'penpay/show-grade-dashboard',
  summary:
    "One grade's dashboard: the grade and its product, its 30 days of figures, subscriptions and latest sales. 404 for another merchant's grade.",
  params: productStockGradeParamsSchema,
  response: gradeDashboardSchema,
  capabilities: { bucket: 'read' },
});

export const getMyMerchantAccount = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v`,
  access: 'user',
  handler: 'penpay/get-my-merchant-account',
  summary:
    "The caller's merchant account (shop name, handle, currency, logo, which Braintree account is connected: never its keys). 404 when the caller has none.",
  response: merchantAccountSchema,
  capabilities: { bucket: 'read' },
});

export const getMyProductStock = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/product/{productStockId}`,
  access: 'user',
  handler: 'penpay/get-my-product-stock',
  summary: "One of the caller's products, whatever its visibility or stock. 404 for another merchant's.",
  params: productStockParamsSchema,
  response: productStockAnswerSchema,
  capabilities: { bucket: 'read' },
});

export const getMyGrade = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/product/{productStockId}/grade/{productStockGradeId}`,
  access: 'user',
  handler: 'penpay/get-my-grade',
  summary: "One grade of one of the caller's products, whatever its visibility or stock. 404 for another merchant's.",
  params: productStockGradeParamsSchema,
  response: gradeAnswerSchema,
});

export const listMyStockedProducts = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/feed/products/stocked`,
  access: 'user',
  handler: 'penpay/list-my-stocked-products',
  summary: "The caller's stocked products (any visibility), newest first, 20 a page (`cursor` for the next).",
  query: feedQuerySchema,
  response: productFeedSchema,
  capabilities: { bucket: 'read' },
});

export const listMyUnstockedProducts = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/feed/products/unstocked`,
  access: 'user',
  handler: 'penpay/list-my-unstocked-products',
  summary: "The caller's unstocked products (not sold; still shown to their subscribers), newest first, 20 a page.",
  query: feedQuerySchema,
  response: productFeedSchema,
  capabilities: { bucket: 'read' },
});

export const listMyStockedGrades = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/feed/product/{productStockId}/grades/stocked`,
  access: 'user',
  handler: 'penpay/list-my-stocked-grades',
  summary: "One of the caller's products' stocked grades, in display order. 404 for another merchant's product.",
  params: productStockParamsSchema,
  query: feedQuerySchema,
  response: gradeFeedSchema,
});

export const listMyUnstockedGrades = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/feed/product/{productStockId}/grades/unstocked`,
  access: 'user',
  handler: 'penpay/list-my-unstocked-grades',
  summary: "One of the caller's products' unstocked grades. 404 for another merchant's product.",
  params: productStockParamsSchema,
  query: feedQuerySchema,
  response: gradeFeedSchema,
});

export const listMyGatewayPlans = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/gateway/plans`,
  access: 'user',
  handler: 'penpay/list-my-gateway-plans',
  summary:
    "The plans (with their add-ons) in the caller's connected Braintree account, for the grade editor to pick from. 409 when no account is connected; 503 when Braintree is out of reach.",
  response: gatewayPlansSchema,
  capabilities: { merchantKeys: 'open' },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

// ---------------------------------------------------------------------------------------------
// Changes

export const registerMerchant = defineRoute({
  method: 'POST',
  path: `${PREFIX}/merchant/register`,
  access: 'user',
  handler: 'penpay/register-merchant',
  summary:
    "Makes the caller's merchant account (one per person): shop name, handle (the shop's address, unique), currency and description, and a logo from an image the caller uploaded. 409 when the caller has one or the handle is taken.",
  body: registerMerchantBodySchema,
  response: merchantAccountSchema,
  capabilities: { bucket: 'read' },
});

export const updateMerchantAccount = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/account`,
  access: 'user',
  handler: 'penpay/update-merchant-account',
  summary: "Changes the caller's shop name, description or logo (the handle and currency stay: links and prices depend on them).",
  body: updateMerchantBodySchema,
  response: merchantAccountSchema,
  capabilities: { bucket: 'read' },
});

export const connectMerchantGateway = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/gateway`,
  access: 'user',
  handler: 'penpay/connect-merchant-gateway',
  summary:
    "Connects (or replaces) the caller's own Braintree account. The keys are tried against Braintree first (400 when it refuses them), then sealed with envelope encryption and never answered or logged. Locally, environment 'local' makes a new account at the local gateway.",
  body: connectGatewayBodySchema,
  response: merchantAccountSchema,
  capabilities: { merchantKeys: 'seal', bucket: 'read' },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const createProductStock = defineRoute({
  method: 'POST',
  path: `${PREFIX}/merchant/me/mod/product`,
  access: 'user',
  handler: 'penpay/create-product-stock',
  summary:
    "Adds a product to the caller's shop: title, description, images the caller uploaded, display settings; private (a draft) unless a visibility is given. Stocked.",
  body: createProductBodySchema,
  response: productStockAnswerSchema,
  capabilities: { bucket: 'read' },
});

export const createGrade = defineRoute({
  method: 'POST',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/grade`,
  access: 'user',
  handler: 'penpay/create-grade',
  summary:
    "Adds a grade to one of the caller's products: a name, a price, and either sold once or by subscription on a plan (and add-ons) of the merchant's Braintree account, checked there (400 for a plan or add-on it does not know, or a plan in another currency).",
  params: productStockParamsSchema,
  body: createGradeBodySchema,
  response: gradeAnswerSchema,
  capabilities: { merchantKeys: 'open' },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const updateProductDisplay = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/display`,
  access: 'user',
  handler: 'penpay/update-product-display',
  summary:
    "Changes a product's title, description, images or display settings (tagline, accent colour, featured, position). Answers the product.",
  params: productStockParamsSchema,
  body: updateProductDisplayBodySchema,
  response: productStockAnswerSchema,
  capabilities: { bucket: 'read' },
});

export const updateGradeDisplay = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/display`,
  access: 'user',
  handler: 'penpay/update-grade-display',
  summary: "Changes a grade's name, description or display settings (badge, highlighted, position, features). Answers the grade.",
  params: productStockGradeParamsSchema,
  body: updateGradeDisplayBodySchema,
  response: gradeAnswerSchema,
});

export const updateGradeSubscription = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/subscription`,
  access: 'user',
  handler: 'penpay/update-grade-subscription',
  summary:
    "Makes a grade a subscription on a plan of the merchant's Braintree account (with the add-ons it offers), or sold once again (`subscription: null`). Checked at the gateway; existing subscribers keep what they bought. Answers the grade.",
  params: productStockGradeParamsSchema,
  body: updateGradeSubscriptionBodySchema,
  response: gradeAnswerSchema,
  capabilities: { merchantKeys: 'open' },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const updateGradePlan = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/subscription/braintreePlanId`,
  access: 'user',
  handler: 'penpay/update-grade-plan',
  summary:
    "Moves a subscription grade to another plan of the merchant's Braintree account (400 for a plan it does not know or of another currency; 409 for a grade sold once). New subscriptions use it; existing ones keep theirs. Answers the grade.",
  params: productStockGradeParamsSchema,
  body: updateGradePlanBodySchema,
  response: gradeAnswerSchema,
  capabilities: { merchantKeys: 'open' },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const updateGradeCost = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/cost`,
  access: 'user',
  handler: 'penpay/update-grade-cost',
  summary:
    "Sets a grade's price (in cents: 0.50 to 100,000.00). Carts show the change before anyone pays; existing subscribers keep their price. Answers the grade.",
  params: productStockGradeParamsSchema,
  body: updateGradeCostBodySchema,
  response: gradeAnswerSchema,
});

export const setProductVisibility = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/visibility/{visibility}`,
  access: 'user',
  handler: 'penpay/set-product-visibility',
  summary:
    'Sets who sees a product: public (listed and sold), unlisted (sold by link, not listed) or private (the merchant only). 400 for any other value.',
  params: productStockVisibilityParamsSchema,
  response: doneSchema,
});

export const setGradeVisibility = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/grade/{productStockGradeId}/visibility/{visibility}`,
  access: 'user',
  handler: 'penpay/set-grade-visibility',
  summary: 'Sets who sees a grade: public, unlisted or private, as for products. 400 for any other value.',
  params: gradeVisibilityParamsSchema,
  response: doneSchema,
});

export const unstockProduct = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/unstock`,
  access: 'user',
  handler: 'penpay/unstock-product',
  summary:
    'Stops selling a product: it leaves the shop and carts flag it, while its subscribers keep their subscriptions and can still see it. Unstocking again changes nothing.',
  params: productStockParamsSchema,
  response: doneSchema,
});

export const stockProduct = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/productStock/{productStockId}/stock`,
  access: 'user',
  handler: 'penpay/stock-product',
  summary: 'Sells an unstocked product again. Stocking again changes nothing.',
  params: productStockParamsSchema,
  response: doneSchema,
});

export const unstockGrade = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/grade/{productStockGradeId}/unstock`,
  access: 'user',
  handler: 'penpay/unstock-grade',
  summary: 'Stops selling a grade; its subscribers keep their subscriptions and can still see it.',
  params: gradeParamsSchema,
  response: doneSchema,
});

export const stockGrade = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/grade/{productStockGradeId}/stock`,
  access: 'user',
  handler: 'penpay/stock-grade',
  summary: 'Sells an unstocked grade again.',
  params: gradeParamsSchema,
  response: doneSchema,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order). shared/routes/index.ts lists the shop's routes (store.ts) right after these,
 * and the storefront's routes fill more than one stack: a route added here would push the shop's
 * routes along and one of them into the app's next stack, which fails to deploy. So a new
 * storefront route goes at the end of store.ts's listing, whichever side it serves.
 */
export const allMerchantRoutes = {
  showMerchantDashboard,
  showProductDashboard,
  showGradeDashboard,
  getMyMerchantAccount,
  getMyProductStock,
  getMyGrade,
  listMyStockedProducts,
  listMyUnstockedProducts,
  listMyStockedGrades,
  listMyUnstockedGrades,
  listMyGatewayPlans,
  registerMerchant,
  updateMerchantAccount,
  connectMerchantGateway,
  createProductStock,
  createGrade,
  updateProductDisplay,
  updateGradeDisplay,
  updateGradeSubscription,
  updateGradePlan,
  updateGradeCost,
  setProductVisibility,
  setGradeVisibility,
  unstockProduct,
  stockProduct,
  unstockGrade,
  stockGrade,
};
