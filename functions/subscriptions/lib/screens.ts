import { SHARE_IMAGE_URL } from '../../../shared/constants';
import type { Seo } from '../../../shared/schemas/common';
import { PRO_PRODUCT } from '../../../shared/transfers/pro-plan';

export const upgradesSeo: Seo = {
  title: `${PRO_PRODUCT.name}: bigger transfers that last longer`,
  description: `${PRO_PRODUCT.description} Up to 200 GB per transfer, kept up to a year, for up to 500 recipients. Monthly or yearly; cancel any time.`,
  keywords: ['file transfer pro', 'send large files', 'file transfer subscription'],
  imageUrl: SHARE_IMAGE_URL,
};

export const checkoutSeo: Seo = {
  title: `Checkout · ${PRO_PRODUCT.name}`,
  description: `Subscribe to ${PRO_PRODUCT.name}.`,
  keywords: [],
  imageUrl: SHARE_IMAGE_URL,
};

export const subscriptionSeo: Seo = {
  title: `Your subscription · ${PRO_PRODUCT.name}`,
  description: `Your ${PRO_PRODUCT.name} plan, card and payments.`,
  keywords: [],
  imageUrl: SHARE_IMAGE_URL,
};
