import {
  doneSchema,
  feedQuerySchema,
  gradeParamsSchema,
  merchantAccountParamsSchema,
  productFeedSchema,
  productStockGradeParamsSchema,
  productStockParamsSchema,
} from '../schemas/merchant';
import {
  addCartItemBodySchema,
  addOnBodySchema,
  cartInvoiceSchema,
  cartItemParamsSchema,
  cartItemSchema,
  cartQuerySchema,
  customerOrdersSchema,
  customerSubscriptionsSchema,
  merchantOrderRefundsSchema,
  openCartsSchema,
  orderFileParamsSchema,
  publicGradeSchema,
  publicGradesSchema,
  publicProductSchema,
  refundAnswerSchema,
  refundOrderBodySchema,
  shopPageSchema,
  storeAddOnParamsSchema,
  storeFulfillBodySchema,
  storeInvoiceParamsSchema,
  storePaymentClientSchema,
  storePaymentMethodBodySchema,
  storeSubscriptionParamsSchema,
  updateCartItemBodySchema,
} from '../schemas/store';
import {
  createGradeFilesBodySchema,
  downloadsPerPurchaseBodySchema,
  gradeFileParamsSchema,
  gradeFilesSchema,
  orderDownloadLinkSchema,
} from '../schemas/digital-products';
import {
  createDiscountCodeBodySchema,
  discountCodeListSchema,
  discountCodeParamsSchema,
  discountCodeSchema,
} from '../schemas/discounts';
import { braintreeWebhookBodySchema, webhookAnswerSchema } from '../schemas/subscriptions';
import { fileAnswerSchema, uploadingFilesSchema } from '../schemas/transfers';
import { defineRoute } from './define-route';

/**
 * The storefront's shop side (functions/penpay/; the merchant's side is merchant.ts): the shop's
 * public pages, which show only what visibility allows; the customer's cart, invoices, orders and
 * subscriptions (`customer/me` routes act on the caller's own only); and each shop's Braintree
 * webhook, which keeps its customers' subscriptions up to date. Every gateway call is the shop's
 * own Braintree account, with its merchant's keys.
 */
const PREFIX = '/api/i/penpay';
/** Routes that wait on the merchant's gateway: a few of its calls in a row, each given up on well before API Gateway's 29 s. */
const GATEWAY_ROUTE_TIMEOUT_SECONDS = 25;
/** Shop pages may be reused this long by a browser or CloudFront: a change shows within a minute. */
const SHOP_CACHE_SECONDS = 60;

// ---------------------------------------------------------------------------------------------
// Shop pages and the customer's reads

export const getCartInvoice = defineRoute({
  method: 'GET',
  path: `${PREFIX}/customer/me/v/cartInvoice`,
  access: 'user',
  handler: 'penpay/get-cart-invoice',
  summary:
    "The caller's cart at one shop (`merchantAccountId`) priced from the grades as they are now, and its invoice: the same open invoice while the cart does not change, a new one when it does. Items whose price changed since they were added are flagged with both prices; unstocked or private ones are flagged and left out. `invoice` is null when nothing can be bought. With `discountCode`, the invoice is priced with that code of the shop (a use is counted only when it is paid), each line's saving and the total saving shown; 400 with the reason for a code that is unknown (another shop's too), not valid yet, expired or not for these items, 409 for one used up or already used by the caller (once per customer).",
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
  summary:
    "The caller's paid orders across every shop, newest first, 20 a page. Each lists the files its grades deliver (`downloads`), with the downloads left of each and whether it may be downloaded now (`access`: available, used-up, refunded, subscription-ended).",
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
// The customer's changes

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
    "Pays the caller's cart invoice with the card behind `paymentMethodNonce`, at the shop's own Braintree account: one-time lines as one sale, each subscription line as a subscription on its grade's plan. Answers true. Idempotent: a repeated or concurrent call charges nothing more and answers true. 409 (nothing charged) when the cart changed since this invoice was made or was paid from another invoice (only the current invoice is payable: fetch cartInvoice again), when a grade changed price or stopped being sold since the invoice was made, or when the customer holds a live subscription to one of its grades already; 402 with the reason when the card is declined (the invoice stays payable), 404 for another customer's invoice, 503 with Retry-After when the gateway is out of reach.",
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

export const listMyCarts = defineRoute({
  method: 'GET',
  path: `${PREFIX}/customer/me/v/carts`,
  access: 'user',
  handler: 'penpay/list-my-carts',
  summary:
    "The caller's open carts (shops where something is in their cart), the one added to last first: each with its shop, how many items can be bought now (`itemCount`: the quantities of the lines still sold, added up), how many lines in all and how many of them are no longer sold (`unavailableLineCount`: a product or grade no longer sold, or a closed shop; shown on the cart's page to be removed, never counted in `itemCount`), and when something was last added. The cart's page is named by `merchantAccountId`; its prices are in cartInvoice.",
  response: openCartsSchema,
});

export const updateCartItemQuantity = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/customer/me/mod/cartItem/{cartItemId}`,
  access: 'user',
  handler: 'penpay/update-cart-item-quantity',
  summary:
    "Sets how many of an item the caller's cart holds (1 to 99; a subscription is 1). 400 when the grade can no longer be bought, 404 for an item not in the caller's cart. Answers the cart item, priced now.",
  params: cartItemParamsSchema,
  body: updateCartItemBodySchema,
  response: cartItemSchema,
});

// ---------------------------------------------------------------------------------------------
// The shop's Braintree webhook

export const receiveMerchantWebhook = defineRoute({
  method: 'POST',
  path: '/api/e/braintree/merchant/{merchantAccountId}/webhook',
  access: 'public',
  handler: 'penpay/receive-merchant-webhook',
  summary:
    "A merchant's Braintree webhook (set in their Control Panel to this address): verified with that merchant's own keys (401 otherwise), stored once, then the subscription's state is read from their gateway, recorded, and renewals counted in their figures. A signed payload that cannot be used is acknowledged with 200 and logged, never a 5xx.",
  params: merchantAccountParamsSchema,
  body: braintreeWebhookBodySchema,
  response: webhookAnswerSchema,
  acceptsFormBody: true,
  stateChanging: false,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

// ---------------------------------------------------------------------------------------------
// Digital products: files a grade delivers after purchase (functions/penpay/lib/digital-*.ts)

const NOT_YOUR_GRADE = "404 for a grade that is not the caller's, as for an unknown one";

export const listGradeFiles = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/grade/{productStockGradeId}/files`,
  access: 'user',
  handler: 'penpay/list-grade-files',
  summary: `The files the caller's grade delivers after purchase (pending ones too, oldest first) and how many downloads of each one purchase gets. ${NOT_YOUR_GRADE}.`,
  params: gradeParamsSchema,
  response: gradeFilesSchema,
});

export const createGradeFiles = defineRoute({
  method: 'POST',
  path: `${PREFIX}/merchant/me/mod/grade/{productStockGradeId}/files`,
  access: 'user',
  handler: 'penpay/create-grade-files',
  summary: `Adds files to the caller's grade, delivered to its buyers after payment: each is made pending in the shop's own space of the file bucket (never public) and answered with where to send its bytes, as a transfer's files are (createFiles). The upload then goes on through the file routes (sign-parts, form, parts, finalizeBRecord, which checks what arrived), as a transfer's does. At most 20 files per grade (400 beyond); 400 for a refused type. ${NOT_YOUR_GRADE}.`,
  params: gradeParamsSchema,
  body: createGradeFilesBodySchema,
  response: uploadingFilesSchema,
  capabilities: { bucket: 'write' },
});

export const removeGradeFile = defineRoute({
  method: 'DELETE',
  path: `${PREFIX}/merchant/me/mod/grade/{productStockGradeId}/file/{fileId}`,
  access: 'user',
  handler: 'penpay/remove-grade-file',
  summary: `Removes a file from the caller's grade, with its bytes: its buyers no longer find it on their orders. Answers the removed file. ${NOT_YOUR_GRADE}, and for a file of another grade.`,
  params: gradeFileParamsSchema,
  response: fileAnswerSchema,
  capabilities: { bucket: 'read-write' },
});

export const updateGradeDownloads = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/grade/{productStockGradeId}/downloadsPerPurchase`,
  access: 'user',
  handler: 'penpay/update-grade-downloads',
  summary: `Sets how many times one purchase of the caller's grade may download each of its files (1 to 100; 5 until set). It applies to every purchase from the next download on. Answers the grade's files. ${NOT_YOUR_GRADE}.`,
  params: gradeParamsSchema,
  body: downloadsPerPurchaseBodySchema,
  response: gradeFilesSchema,
});

export const downloadOrderFile = defineRoute({
  method: 'POST',
  path: `${PREFIX}/customer/me/mod/order/{invoiceId}/file/{fileId}/download`,
  access: 'user',
  handler: 'penpay/download-order-file',
  summary:
    "A download link (a presigned GET good for 5 minutes that saves the file under its name) for a file a grade of the caller's paid order delivers, with the downloads left after it. Each call takes one of the purchase's downloads of that file, counted exactly however many run at once. 404 for an order that is not the caller's or a file its grades do not deliver, as for unknown ids; 410 PURCHASE_REFUNDED once the order, or that grade's line, was refunded; 403 SUBSCRIPTION_ENDED for a subscription grade whose subscription no longer gives access (active, or past due within its grace, does); 410 DOWNLOADS_USED_UP when the purchase's downloads of the file are spent.",
  params: orderFileParamsSchema,
  response: orderDownloadLinkSchema,
  capabilities: { bucket: 'read' },
});

// The merchant's discount codes (here and not in merchant.ts: see the listing below)

export const createDiscountCode = defineRoute({
  method: 'POST',
  path: `${PREFIX}/merchant/me/mod/discountCode`,
  access: 'user',
  handler: 'penpay/create-discount-code',
  summary:
    "Creates a discount code for the caller's shop: a percentage (`value` 1-100) or an amount in cents of the shop's currency, for the whole shop or chosen products or grades of the shop, with an optional start, end and number of uses, once per customer if asked, and for subscriptions off the first charge or every charge (`appliesTo`). Codes are unique per shop whatever their case: 409 when the shop has it already; 400 for a product or grade not of the shop; 404 when the caller has no merchant account.",
  body: createDiscountCodeBodySchema,
  response: discountCodeSchema,
});

export const listMyDiscountCodes = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/feed/discountCodes`,
  access: 'user',
  handler: 'penpay/list-my-discount-codes',
  summary:
    "The caller's shop's discount codes, newest first, each with its uses so far (counted as invoices with it are paid). 404 when the caller has no merchant account.",
  response: discountCodeListSchema,
});

export const deactivateDiscountCode = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/merchant/me/mod/discountCode/{code}/deactivate`,
  access: 'user',
  handler: 'penpay/deactivate-discount-code',
  summary:
    "Stops a discount code of the caller's shop from being used (an invoice priced with it and not yet paid is refused at payment, nothing charged); uses already paid stay counted. Answers the code. 404 for a code the shop does not have, another shop's included.",
  params: discountCodeParamsSchema,
  response: discountCodeSchema,
});

// The merchant's refunds (listed last, with the shop's routes: see merchant.ts's listing)

export const refundStoreOrder = defineRoute({
  method: 'POST',
  path: `${PREFIX}/merchant/me/mod/order/{invoiceId}/refund`,
  access: 'user',
  handler: 'penpay/refund-store-order',
  summary:
    "Refunds one of the caller's shop's orders through the shop's own Braintree account, with a reason: the whole of what is left (no amount nor lines), an `amountMinor`, or chosen lines (`lineIndexes` or `productStockGradeIds`). A settled payment is refunded, one not settled yet is voided (whole only). `cancelSubscription` also cancels the subscriptions whose charge it returns. The customer gets a receipt by email and a notification; the dashboard's revenue drops by the refund and its refunds figure counts it. Exactly once: the refund is claimed (and its amount reserved against the order) before the gateway is called; a repeated or concurrent request (same `knownRefunds`, or none) answers the same refund. Answers the refund and the order. 409 with `leftMinor` when more than what is left to refund is asked, 409 PAYMENT_NOT_SETTLED for part of a payment not settled yet, 409 REFUND_REFUSED with the gateway's words (nothing refunded), 409 when a line was refunded already or the order changed meanwhile; 400 for lines the order does not have; 404 for an order that is not the caller's shop's; 503 with Retry-After when the gateway is out of reach (the refund resumes with the next request).",
  params: storeInvoiceParamsSchema,
  body: refundOrderBodySchema,
  response: refundAnswerSchema,
  capabilities: { merchantKeys: 'open', email: true, realtime: true },
  timeoutSeconds: GATEWAY_ROUTE_TIMEOUT_SECONDS,
});

export const listStoreOrderRefunds = defineRoute({
  method: 'GET',
  path: `${PREFIX}/merchant/me/v/order/{invoiceId}/refunds`,
  access: 'user',
  handler: 'penpay/list-store-order-refunds',
  summary:
    "One of the caller's shop's orders as its merchant refunds it: its lines (each marked when refunded item-wise), its total, what was refunded and what is left to refund, and its refunds, oldest first (failed ones too, with the gateway's words). 404 for an order that is not the caller's shop's.",
  params: storeInvoiceParamsSchema,
  response: merchantOrderRefundsSchema,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 * shared/routes/index.ts lists these after the merchant's (merchant.ts): the storefront's last.
 */
export const allStoreRoutes = {
  getCartInvoice,
  listShopProducts,
  listProductGrades,
  getShop,
  getProduct,
  getProductGrade,
  listMyOrders,
  listMySubscriptions,
  getShopPaymentClient,
  addCartItem,
  replaceCartWithItem,
  fulfillStoreInvoice,
  updateStoreSubscriptionPaymentMethod,
  addStoreSubscriptionAddOn,
  cancelStoreSubscription,
  removeCartItem,
  removeStoreSubscriptionAddOn,
  receiveMerchantWebhook,
  listMyCarts,
  updateCartItemQuantity,
  listGradeFiles,
  createGradeFiles,
  removeGradeFile,
  updateGradeDownloads,
  downloadOrderFile,
  createDiscountCode,
  listMyDiscountCodes,
  deactivateDiscountCode,
  refundStoreOrder,
  listStoreOrderRefunds,
};
