export type {
  ProChargeView,
  ProPaymentsView,
  ProRefundView,
  RefundedProCharge,
  RefundProChargeBody,
} from '@shared/schemas/pro-refunds';

/** A person's Pro charges as a superuser refunds them (the key carries who asks and whom they looked up). */
export const proRefundKeys = {
  person: (userId: string, person: string) => ['subscriptions', 'pro-payments', userId, person] as const,
};
