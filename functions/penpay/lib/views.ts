import type { Money } from '../../../shared/payments/money';
import type { GradeView, MerchantAccountView, ProductStockView, ShopCurrency } from '../../../shared/schemas/merchant';
import type { ShopView } from '../../../shared/schemas/store';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import { receiveMerchantWebhook } from '../../../shared/routes/store';
import { getConfig } from '../../lib/config';
import { presignGet } from '../../lib/files/file-bucket';

/** How long a page's link to an image works; the page is fetched again well before. */
const IMAGE_LINK_SECONDS = 3_600;

type StoredImage = { fileId: string; objectKey: string; name: string; contentType: string };

/** A link to a shop image: signed locally (no call to S3), so a page of products costs no reads for its images. */
export async function imageView(image: StoredImage): Promise<{ fileId: string; url: string }> {
  const url = await presignGet({
    key: image.objectKey,
    fileName: image.name,
    contentType: image.contentType,
    disposition: 'inline',
    expiresInSeconds: IMAGE_LINK_SECONDS,
  });
  return { fileId: image.fileId, url };
}

export async function toMerchantAccountView(merchant: MerchantAccountItem): Promise<MerchantAccountView> {
  return {
    id: merchant.merchantAccountId,
    handle: merchant.handle,
    shopName: merchant.shopName,
    description: merchant.description,
    currency: merchant.currency as ShopCurrency,
    logo: merchant.logo ? await imageView(merchant.logo) : null,
    gateway: merchant.gateway
      ? {
          environment: merchant.gateway.environment,
          merchantId: merchant.gateway.merchantId,
          connectedAt: merchant.gateway.connectedAt,
          webhookUrl: merchantWebhookUrl(merchant.merchantAccountId),
        }
      : null,
    createdAt: merchant.createdAt,
  };
}

export async function toShopView(merchant: MerchantAccountItem): Promise<ShopView> {
  return {
    id: merchant.merchantAccountId,
    handle: merchant.handle,
    shopName: merchant.shopName,
    description: merchant.description,
    currency: merchant.currency as ShopCurrency,
    logo: merchant.logo ? await imageView(merchant.logo) : null,
    acceptsPayments: merchant.gateway !== undefined && merchant.closedAt === undefined,
  };
}

/** The shop's webhook address: the product's API is served under the web app's origin. */
export const merchantWebhookUrl = (merchantAccountId: string) =>
  `${getConfig().webOrigin}${receiveMerchantWebhook.path.replace('{merchantAccountId}', merchantAccountId)}`;

const money = (amountMinor: number, currency: string): Money => ({ amountMinor, currency });

export function toGradeView(grade: ProductStockGradeItem, purchasable: boolean): GradeView {
  return {
    id: grade.productStockGradeId,
    productStockId: grade.productStockId,
    merchantAccountId: grade.merchantAccountId,
    name: grade.name,
    description: grade.description,
    display: {
      badge: grade.display.badge ?? null,
      highlighted: grade.display.highlighted,
      position: grade.display.position,
      features: grade.display.features ?? [],
    },
    visibility: grade.visibility,
    stocked: grade.stocked,
    price: money(grade.priceMinor, grade.currency),
    billing: grade.plan
      ? {
          kind: 'subscription',
          braintreePlanId: grade.plan.braintreePlanId,
          billingFrequencyMonths: grade.plan.billingFrequencyMonths,
          addOns: grade.plan.addOns.map((addOn) => ({
            addOnId: addOn.addOnId,
            name: addOn.name,
            price: money(addOn.amountMinor, grade.currency),
            maxQuantity: addOn.maxQuantity,
          })),
        }
      : { kind: 'once' },
    purchasable,
    createdAt: grade.createdAt,
    updatedAt: grade.updatedAt,
  };
}

/**
 * A product, its price "from" the lowest of its grades that can be bought: none while the product
 * itself cannot be (unstocked, private) or the shop takes no payments.
 */
export async function toProductView(product: ProductStockItem, shopConnected: boolean): Promise<ProductStockView> {
  const sellable = shopConnected && product.stocked && product.visibility !== 'private';
  return {
    id: product.productStockId,
    merchantAccountId: product.merchantAccountId,
    title: product.title,
    description: product.description,
    images: await Promise.all(product.images.map(imageView)),
    display: {
      tagline: product.display.tagline ?? null,
      accentColor: product.display.accentColor ?? null,
      featured: product.display.featured,
      position: product.display.position,
    },
    visibility: product.visibility,
    stocked: product.stocked,
    priceFrom: sellable && product.lowestPriceMinor !== undefined ? money(product.lowestPriceMinor, product.currency) : null,
    gradeCount: product.gradeCount,
    // lowestPriceMinor is kept (refreshProductSummary) exactly while a stocked, non-private grade exists.
    hasGradeOnSale: product.lowestPriceMinor !== undefined,
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
  };
}
