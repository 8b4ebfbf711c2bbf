import type { PlanId } from './plans';

/**
 * Passwords on transfers: the rules the server enforces and the send form shows. A password is a
 * Pro feature; it is long enough that guessing it within the unlock limits is hopeless, and
 * short enough that hashing it costs what the hash's parameters say, not what a caller sends.
 */
export const MIN_TRANSFER_PASSWORD_LENGTH = 6;
export const MAX_TRANSFER_PASSWORD_LENGTH = 128;

export const planAllowsPasswords = (planId: PlanId) => planId === 'pro';

/** The code of the answer a protected package gives until this browser unlocks it. */
export const PASSWORD_REQUIRED_CODE = 'PASSWORD_REQUIRED';
/** The code of a refused unlock (the password was wrong). */
export const WRONG_PASSWORD_CODE = 'WRONG_PASSWORD';
/** The code of the 403 a Free sender gets for setting a password. */
export const PRO_FEATURE_CODE = 'PRO_FEATURE';
