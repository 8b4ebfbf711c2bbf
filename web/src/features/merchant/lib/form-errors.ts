import { ApiError } from '../../../lib/api-client';

/** What went wrong with a form: a message per field it names, and the rest for the alert beside the form. */
export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  form?: string | undefined;
}

const OFFLINE = 'The server did not answer. Check your connection and try again.';

/**
 * The form field a path names: its last segment that is not an index, so that
 * `display.tagline` is the tagline and `display.features.2` the features.
 */
function fieldOf<F extends string>(path: readonly PropertyKey[], known: readonly F[]): F | undefined {
  const name = [...path].reverse().find((segment) => typeof segment === 'string' && !/^\d+$/.test(segment));
  return known.find((candidate) => candidate === name);
}

/**
 * The form's errors from the API's answer: a 400 that lists `fields` puts each message under its
 * field, anything else (a 409, a refusal in words) goes to the alert beside the form.
 */
export function formErrors<F extends string>(error: unknown, known: readonly F[]): FormErrors<F> {
  if (!(error instanceof ApiError))
    return { fields: {}, form: error instanceof Error && error.message ? error.message : OFFLINE };
  const listed = Array.isArray(error.body?.fields) ? (error.body.fields as { field?: unknown; message?: unknown }[]) : [];
  const fields: Partial<Record<F, string>> = {};
  const unplaced: string[] = [];
  for (const item of listed) {
    const path = typeof item.field === 'string' ? item.field.split('.') : [];
    const message = typeof item.message === 'string' ? item.message : 'Not valid';
    const field = fieldOf(path, known);
    if (field) fields[field] ??= message;
    else unplaced.push(message);
  }
  if (listed.length === 0) return { fields, form: error.message };
  return { fields, form: unplaced.length ? unplaced.join(' ') : 'Some fields need another look: see the messages under them.' };
}

/** A zod check's issues the same way: the first message of each field, the rest for the alert. */
export function issueErrors<F extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  known: readonly F[],
): FormErrors<F> {
  const fields: Partial<Record<F, string>> = {};
  const unplaced: string[] = [];
  for (const issue of issues) {
    const field = fieldOf(issue.path, known);
    if (field) fields[field] ??= issue.message;
    else unplaced.push(issue.message);
  }
  return { fields, form: unplaced.length ? unplaced.join(' ') : undefined };
}

/** Why a call failed, in words for an alert. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : OFFLINE;
}

/** A 404: the thing is not the caller's, or not there at all (the server answers both alike). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** A 409: here, a shop with no payment account connected yet (or an address already taken). */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}
