import type * as Sonner from 'sonner';
import type { ExternalToast } from 'sonner';

/**
 * Toasts: bottom-right, at most 3 at once, auto-close after 4000 ms, newest
 * on top. Raise one with `toast('Saved')`, `toast.success(...)`, `toast.error(...)`; the shell
 * renders the container (web/src/app/layout/app-toaster.tsx).
 *
 * sonner's API, but sonner itself (about 10 KB gzip) is only downloaded with the first toast,
 * so it stays out of the first page load.
 */
export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 4_000;
export const TOAST_POSITION = 'bottom-right' as const;

type SonnerModule = typeof Sonner;
type Message = Parameters<SonnerModule['toast']>[0];
type ToastId = string | number;

let sonner: SonnerModule | undefined;
let loading: Promise<SonnerModule> | undefined;
const listeners = new Set<() => void>();

/** Download sonner once; the toaster mounts when it has arrived. */
export function loadToasts(): Promise<SonnerModule> {
  loading ??= import('sonner').then((module) => {
    sonner = module;
    listeners.forEach((listener) => listener());
    return module;
  });
  return loading;
}

export function getLoadedToasts(): SonnerModule | undefined {
  return sonner;
}

export function subscribeToToastsLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function withSonner(run: (module: SonnerModule) => void): void {
  if (sonner) run(sonner);
  else void loadToasts().then(run);
}

let sequence = 0;

function show(
  kind: 'message' | 'success' | 'error' | 'info' | 'warning',
  message: Message,
  options: ExternalToast = {},
): ToastId {
  const id = options.id ?? `toast-${(sequence += 1)}`;
  withSonner(({ toast: sonnerToast }) => {
    if (kind === 'message') sonnerToast(message, { ...options, id });
    else sonnerToast[kind](message, { ...options, id });
  });
  return id;
}

export const toast = Object.assign((message: Message, options?: ExternalToast) => show('message', message, options), {
  success: (message: Message, options?: ExternalToast) => show('success', message, options),
  error: (message: Message, options?: ExternalToast) => show('error', message, options),
  info: (message: Message, options?: ExternalToast) => show('info', message, options),
  warning: (message: Message, options?: ExternalToast) => show('warning', message, options),
  /** Dismiss one toast, or all of them without an id. */
  dismiss: (id?: ToastId) => withSonner(({ toast: sonnerToast }) => sonnerToast.dismiss(id)),
});
