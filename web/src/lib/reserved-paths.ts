import { RESERVED_PATH_SEGMENTS } from '@shared/constants';

/** Path segments that can never be a username or a shared-link slug: they name pages of their own (/me, .../edit). */
export { RESERVED_PATH_SEGMENTS };

export type ReservedPathSegment = (typeof RESERVED_PATH_SEGMENTS)[number];

/** True when the segment (case-insensitive, surrounding slashes ignored) is reserved. */
export function isReservedSegment(segment: string): segment is ReservedPathSegment {
  const normalised = segment.replace(/^\/+|\/+$/g, '').toLowerCase();
  return (RESERVED_PATH_SEGMENTS as readonly string[]).includes(normalised);
}
