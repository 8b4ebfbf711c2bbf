/**
 * How long S3 keeps a transfer's bytes. Each object is tagged with the smallest retention class
 * that covers its transfer's lifetime, and one lifecycle rule per class expires tagged objects a
 * day after that (S3 counts from the object's creation, which is after the transfer's, and
 * rounds to midnight UTC). So the bucket removes a transfer's files by itself, with 13 rules
 * rather than one per possible expiry; the code refuses downloads from the expiry on anyway.
 */
export const RETENTION_TAG = 'retention-days';
export const RETENTION_CLASSES = [1, 2, 3, 4, 5, 6, 7, 14, 30, 60, 90, 180, 365] as const;

const LONGEST_CLASS = 365;

export function retentionClassFor(lifetimeDays: number): number {
  return RETENTION_CLASSES.find((days) => days >= lifetimeDays) ?? LONGEST_CLASS;
}

/** Days after an object's creation when its lifecycle rule removes it. */
export const expirationDaysOf = (retentionClass: number) => retentionClass + 1;
