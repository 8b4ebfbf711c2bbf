export type { CreateProDiscountCodeBody, DiscountCodeView } from '@shared/schemas/discounts';

/** The Pro plan's codes, as a superuser sees them (the key carries who asks). */
export const proDiscountCodeKeys = {
  list: (userId: string) => ['subscriptions', 'pro-discount-codes', userId] as const,
};
