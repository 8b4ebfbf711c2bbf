/**
 * Days a subscription whose renewal failed keeps what it gives (Pro, a shop's subscription),
 * while the subscriber updates their card: long enough to notice the email, short enough that
 * nobody uses it for free for long. The same at every seller: it is the billing engine's dunning.
 */
export const PAST_DUE_GRACE_DAYS = 7;
