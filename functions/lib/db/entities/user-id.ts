import { normaliseUserId } from '../../../../shared/schemas/account';

/**
 * Every attribute that stores a user id: lower-cased on every write, whatever the caller
 * passed, so stored ids compare equal exactly when they name the same user.
 */
export const userIdAttribute = {
  type: 'string',
  required: true,
  set: (value?: string) => (value === undefined ? value : normaliseUserId(value)),
} as const;
