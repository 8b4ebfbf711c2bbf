import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * An id with its kind in front (mer_, prd_, grd_, cit_) and 20 random lower-case letters and
 * digits (103 bits): unguessable, never the access check, and never mistaken for a shop handle
 * (which has no '_').
 */
function newId(prefix: 'mer' | 'prd' | 'grd' | 'cit'): string {
  const bytes = randomBytes(20);
  let body = '';
  // 36 does not divide 256: the small bias of the modulo costs a fraction of a bit, nothing more.
  for (const byte of bytes) body += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${body}`;
}

export const newMerchantAccountId = () => newId('mer');
export const newProductStockId = () => newId('prd');
export const newGradeId = () => newId('grd');
export const newCartItemId = () => newId('cit');
