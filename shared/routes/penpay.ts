import {
  addCartItemBodySchema,
  addOnBodySchema,
  cartInvoiceSchema,
  cartItemParamsSchema,
  cartItemSchema,
  cartQuerySchema,
  connectGatewayBodySchema,
  createGradeBodySchema,
  createProductBodySchema,
  customerOrdersSchema,
  customerSubscriptionsSchema,
  doneSchema,
  feedQuerySchema,
  gatewayPlansSchema,
  gradeAnswerSchema,
  gradeDashboardSchema,
  gradeFeedSchema,
  gradeParamsSchema,
  gradeVisibilityParamsSchema,
  merchantAccountParamsSchema,
  merchantAccountSchema,
  merchantDashboardSchema,
  productDashboardSchema,
  productFeedSchema,
  productStockAnswerSchema,
  productStockGradeParamsSchema,
  productStockParamsSchema,
  productStockVisibilityParamsSchema,
  publicGradeSchema,
  publicGradesSchema,
  publicProductSchema,
  registerMerchantBodySchema,
  shopPageSchema,
  storeAddOnParamsSchema,
  storeFulfillBodySchema,
  storeInvoiceParamsSchema,
  storePaymentClientSchema,
  storePaymentMethodBodySchema,
  storeSubscriptionParamsSchema,
  updateGradeCostBodySchema,
  updateGradeDisplayBodySchema,
  updateGradePlanBodySchema,
  updateGradeSubscriptionBodySchema,
  updateMerchantBodySchema,
  updateProductDisplayBodySchema,
} from '../schemas/penpay';
import { braintreeWebhookBodySchema, webhookAnswerSchema } from '../schemas/subscriptions';
import { defineRoute } from './define-route';

/**
 * The storefront connector. `merchant/me` routes act on the caller's own merchant account only
 * (another merchant's product or grade answers 404); `customer/me` routes on the caller's own
 * cart, invoices and subscriptions; the rest are the shop's public pages, which show only what
 * visibility allows. Every gateway call uses the merchant's own Braintree keys.
 */
const PREFIX = '/api/i/penpay';
/** Routes that wait on the merchant's gateway: a few of its calls in a row, each given up on well before API Gateway's 29 s. */
const GATEWAY_ROUTE_TIMEOUT_SECONDS = 25;
/** Shop pages may be reused this long by a browser or CloudFront: a change shows within a minute. */
const SHOP_CACHE_SECONDS = 60;

// ---------------------------------------------------------------------------------------------
// Merchant: screens and reads

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
// Customer-facing reads

export const getCartInvoice = defineRoute({
  method: 'GET',
  path: `${PREFIX}/customer/me/v/cartInvoice`,
  access: 'user',
  handler: 'penpay/get-cart-invoice',
  summary:
    "The caller's cart at one shop (`merchantAccountId`) priced from the grades as they are now, and its invoice: the same open invoice while the cart does not change, a new one when it does. Items whose price changed since they were added are flagged with both prices; unstocked or private ones are flagged and left out. `invoice` is null when nothing can be bought.",
  query: cartQuerySchema,
  response: cartInvoiceSchema,
  capabilities: { table: 'read-write', bucket: 'read' },
});

export const listShopProducts = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/{merchantAccountId}/v/feed/products`,
  access: 'public',
  handler: 'penpay/list-shop-products',
  summary:
    "A shop's listed products (public and stocked), featured first then by position, 20 a page. The shop is named by its id or its handle; 404 for an unknown one.",
  params: merchantAccountParamsSchema,
  query: feedQuerySchema,
  response: productFeedSchema,
  capabilities: { bucket: 'read' },
  cacheSeconds: SHOP_CACHE_SECONDS,
});

export const listProductGrades = defineRoute({
  method: 'GET',
  path: `${PREFIX}/product/{productStockId}/grades`,
  access: 'public',
  handler: 'penpay/list-product-grades',
  summary:
    "A product's grades a customer may see (public ones, stocked or not; `purchasable` says which can be bought), in display order. 404 for a private product.",
  params: productStockParamsSchema,
  response: publicGradesSchema,
  cacheSeconds: SHOP_CACHE_SECONDS,
});

export const getShop = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/{merchantAccountId}/v`,
  access: 'public',
  handler: 'penpay/get-shop',
  summary:
    'A shop as customers see it, by its id or its handle (name, description, logo, currency, whether it takes payments). 404 for an unknown one.',
  params: merchantAccountParamsSchema,
  response: shopPageSchema,
  capabilities: { bucket: 'read' },
  cacheSeconds: SHOP_CACHE_SECONDS,
});

export const getProduct = defineRoute({
  method: 'GET',
  path: `${PREFIX}/product/{productStockId}/v`,
  access: 'public',
  handler: 'penpay/get-product',
  summary:
    'A product page: the shop, the product and its grades a customer may see. Public and unlisted products answer (unlisted ones only to those with the link); private ones are 404 except to their merchant. An unstocked product still answers, for its subscribers, with nothing purchasable.',
  params: productStockParamsSchema,
  response: publicProductSchema,
  capabilities: { bucket: 'read' },
  cacheSeconds: SHOP_CACHE_SECONDS,
});

export const getProductGrade = defineRoute({
  method: 'GET',
  path: `${PREFIX}/product/{productStockId}/v/grade/{productStockGradeId}`,
  access: 'public',
  handler: 'penpay/get-product-grade',
  summary:
    'A grade page: the shop, the product and the grade, under the same visibility rules as the product page (a private grade is 404).',
  params: productStockGradeParamsSchema,
  response: publicGradeSchema,
  capabilities: { bucket: 'read' },
  cacheSeconds: SHOP_CACHE_SECONDS,
});

export const listMyOrders = defineRoute({
  method: 'GET',
  path: `${PREFIX}/customer/me/v/orders`,
  access: 'user',
  handler: 'penpay/list-my-orders',
  summary: "The caller's paid orders across every shop, newest first, 20 a page.",
  query: feedQuerySchema,
  response: customerOrdersSchema,
});

export const listMySubscriptions = defineRoute({
  method: 'GET',
  path: `${PREFIX}/customer/me/v/subscriptions`,
  access: 'user',
  handler: 'penpay/list-my-subscriptions',
  summary:
    "The caller's subscriptions across every shop (active, past due, canceled), with their add-ons and the add-ons they may still add.",
  response: customerSubscriptionsSchema,
});

export const getShopPaymentClient = defineRoute({
  method: 'GET',
  path: `${PREFIX}/customer/me/v/shop/{merchantAccountId}/client_token`,
  access: 'user',
  handler: 'penpay/get-shop-payment-client',
  summary:
    "A client token of the shop's own Braintree account for the card form (Drop-in, or the local gateway's form). 409 when the shop takes no payments yet.",
  params: merchantAccountParamsSchema,
  response: storePaymentClientSchema,
  capabilities: { merchantKeys: 'open' },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

// ---------------------------------------------------------------------------------------------
// Merchant: changes

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

// ---------------------------------------------------------------------------------------------
// Customer: changes

export const addCartItem = defineRoute({
  method: 'POST',
  path: `${PREFIX}/customer/me/mod/cartItem`,
  access: 'user',
  handler: 'penpay/add-cart-item',
  summary:
    "Puts a grade in the caller's cart at its shop (the same one-time grade again adds to its quantity; a subscription grade is one per cart). 400 for a grade that cannot be bought (unstocked, private, its shop not connected), or more than 99 of one, or 20 lines. Answers the cart item.",
  body: addCartItemBodySchema,
  response: cartItemSchema,
});

export const replaceCartWithItem = defineRoute({
  method: 'POST',
  path: `${PREFIX}/customer/me/mod/loneCartItem`,
  access: 'user',
  handler: 'penpay/replace-cart-with-item',
  summary:
    'Empties the caller\'s cart at the grade\'s shop and puts this one grade in it ("buy now"). Same refusals as cartItem. Answers the cart item.',
  body: addCartItemBodySchema,
  response: cartItemSchema,
});

export const fulfillStoreInvoice = defineRoute({
  method: 'POST',
  path: `${PREFIX}/customer/me/mod/invoice/{invoiceId}/fulfill/subscription`,
  access: 'user',
  handler: 'penpay/fulfill-store-invoice',
  summary:
    "Pays the caller's cart invoice with the card behind `paymentMethodNonce`, at the shop's own Braintree account: one-time lines as one sale, each subscription line as a subscription on its grade's plan. Answers true. Idempotent: a repeated or concurrent call charges nothing more and answers true. 409 when a grade changed price or stopped being sold since the invoice was made (fetch cartInvoice again), 402 with the reason when the card is declined (the invoice stays payable), 404 for another customer's invoice, 503 with Retry-After when the gateway is out of reach.",
  params: storeInvoiceParamsSchema,
  body: storeFulfillBodySchema,
  response: doneSchema,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const updateStoreSubscriptionPaymentMethod = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/customer/me/mod/subscription/{subscriptionProductId}/paymentMethod`,
  access: 'user',
  handler: 'penpay/update-store-subscription-payment-method',
  summary:
    "Puts the card behind `paymentMethodNonce` on the caller's subscription; a past-due one is charged again at once (402 with the reason when that fails). Answers true. 404 for anyone else's.",
  params: storeSubscriptionParamsSchema,
  body: storePaymentMethodBodySchema,
  response: doneSchema,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const addStoreSubscriptionAddOn = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/customer/me/mod/subscription/{subscriptionProductId}/addOn`,
  access: 'user',
  handler: 'penpay/add-store-subscription-add-on',
  summary:
    "Adds an add-on the grade offers to the caller's active subscription, or sets its quantity; the rest of the current cycle is charged at once, prorated as Braintree does (402 and nothing changes when that charge is declined). Answers true.",
  params: storeSubscriptionParamsSchema,
  body: addOnBodySchema,
  response: doneSchema,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const cancelStoreSubscription = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/customer/me/mod/subscription/{subscriptionProductId}/cancel`,
  access: 'user',
  handler: 'penpay/cancel-store-subscription',
  summary:
    "Cancels the caller's subscription at the shop's gateway: nothing more is charged. Canceling again changes nothing. Answers true; 404 for anyone else's.",
  params: storeSubscriptionParamsSchema,
  response: doneSchema,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const removeCartItem = defineRoute({
  method: 'DELETE',
  path: `${PREFIX}/customer/me/mod/cartItem/{cartItemId}`,
  access: 'user',
  handler: 'penpay/remove-cart-item',
  summary: "Takes an item out of the caller's cart. Answers the removed item; 404 for an item not in the caller's cart.",
  params: cartItemParamsSchema,
  response: cartItemSchema,
});

export const removeStoreSubscriptionAddOn = defineRoute({
  method: 'DELETE',
  path: `${PREFIX}/customer/me/mod/subscription/{subscriptionProductId}/addOn/{addOnId}`,
  access: 'user',
  handler: 'penpay/remove-store-subscription-add-on',
  summary:
    "Takes an add-on off the caller's subscription from the next cycle (Braintree gives no refund for the current one). Answers true; 404 when it is not on it.",
  params: storeAddOnParamsSchema,
  response: doneSchema,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const receiveMerchantWebhook = defineRoute({
  method: 'POST',
  path: '/api/e/braintree/merchant/{merchantAccountId}/webhook',
  access: 'public',
  handler: 'penpay/receive-merchant-webhook',
  summary:
    "A merchant's Braintree webhook (set in their Control Panel to this address): verified with that merchant's own keys (401 otherwise), stored once, then the subscription's state is read from their gateway, recorded, and renewals counted in their figures.",
  params: merchantAccountParamsSchema,
  body: braintreeWebhookBodySchema,
  response: webhookAnswerSchema,
  acceptsFormBody: true,
  stateChanging: false,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

/** The group in listing order: a new route goes at the end. */
export const allPenpayRoutes = {
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
  getCartInvoice,
  listShopProducts,
  listProductGrades,
  getShop,
  getProduct,
  getProductGrade,
  listMyOrders,
  listMySubscriptions,
  getShopPaymentClient,
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
  addCartItem,
  replaceCartWithItem,
  fulfillStoreInvoice,
  updateStoreSubscriptionPaymentMethod,
  addStoreSubscriptionAddOn,
  cancelStoreSubscription,
  removeCartItem,
  removeStoreSubscriptionAddOn,
  receiveMerchantWebhook,
};
