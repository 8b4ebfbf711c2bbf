import { randomUUID } from 'node:crypto';

/** `label` and 8 random hex digits: a name (a handle, an OAuth subject, an app id) no other test uses. */
export const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/** An address nobody has used yet: a new account at its first login. */
export const uniqueEmail = (label = 'reader') => `${uniqueName(label)}@example.com`;
