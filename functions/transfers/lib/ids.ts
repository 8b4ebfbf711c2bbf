import { randomBytes } from 'node:crypto';

/** 128 random bits in base64url (22 characters): transfer and file ids, unguessable but never the access check. */
export const newEntityId = (): string => randomBytes(16).toString('base64url');
