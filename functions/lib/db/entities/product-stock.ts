import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** An image of the shop (a logo, a product's picture): its file and where its bytes are. */
export const STORE_IMAGE_PROPERTIES = {
  fileId: { type: 'string', required: true },
  objectKey: { type: 'string', required: true },
  name: { type: 'string', required: true },
  contentType: { type: 'string', required: true },
} as const;

export const STORE_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
/** Index values derived from `stocked` and `visibility`, which the feeds are keyed by. */
export const STOCK_STATES = ['stocked', 'unstocked'] as const;
export const SHELVES = ['listed', 'hidden'] as const;

/**
 * A product of a shop. The merchant's feeds list its products by stock state through gsi1; the
 * shop's page lists the listed ones (public and stocked) through gsi2, in display order.
 * `stockState` and `shelf` follow `stocked` and `visibility` on every write (productShelfKeys):
 * ElectroDB rebuilds an index key only when all of its composites are set, so a write that
 * changes one sets all of them.
 */
export const createProductStockEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'productStock', version: '1' },
      attributes: {
        productStockId: { type: 'string', required: true },
        merchantAccountId: { type: 'string', required: true },
        title: { type: 'string', required: true },
        description: { type: 'string', required: true, default: '' },
        /** The images, with where their bytes are, so a page links them without reading each file's record. */
        images: { type: 'list', required: true, items: { type: 'map', properties: STORE_IMAGE_PROPERTIES } },
        display: {
          type: 'map',
          required: true,
          properties: {
            tagline: { type: 'string' },
            accentColor: { type: 'string' },
            featured: { type: 'boolean', required: true, default: false },
            position: { type: 'number', required: true, default: 0 },
          },
        },
        visibility: { type: STORE_VISIBILITIES, required: true },
        stocked: { type: 'boolean', required: true },
        stockState: { type: STOCK_STATES, required: true },
        shelf: { type: SHELVES, required: true },
        /** featured first ('0'), then position, zero-padded: the shop's order as a sort key. */
        shelfOrder: { type: 'string', required: true },
        /**
         * Kept from its grades by every grade change (refreshProductSummary): how many there are and
         * the lowest price of the stocked, non-private ones, so a shop page of products reads no grades.
         */
        gradeCount: { type: 'number', required: true, default: 0 },
        lowestPriceMinor: { type: 'number' },
        currency: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['productStockId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byMerchant: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['merchantAccountId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['stockState', 'createdAt', 'productStockId'], casing: 'none' },
        },
        byShelf: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['merchantAccountId'], casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['shelf', 'shelfOrder', 'productStockId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type ProductStockItem = EntityItem<ReturnType<typeof createProductStockEntity>>;

/** The derived index values of a product or grade, to set with any change of stock, visibility or display order. */
export function shelfKeys(item: {
  stocked: boolean;
  visibility: (typeof STORE_VISIBILITIES)[number];
  featured?: boolean | undefined;
  position: number;
}): { stockState: (typeof STOCK_STATES)[number]; shelf: (typeof SHELVES)[number]; shelfOrder: string } {
  return {
    stockState: item.stocked ? 'stocked' : 'unstocked',
    shelf: item.stocked && item.visibility === 'public' ? 'listed' : 'hidden',
    shelfOrder: `${item.featured ? '0' : '1'}${String(item.position).padStart(4, '0')}`,
  };
}
