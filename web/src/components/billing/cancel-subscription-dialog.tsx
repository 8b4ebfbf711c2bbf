import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { toast } from '../../lib/toast';
import { ConfirmDialog } from '../confirm-dialog';

/**
 * Asks before canceling a subscription: nothing more is charged, and what the subscriber keeps
 * until the end of the period paid for is said in the feature's words. Once canceled, a toast
 * says so and the dialog closes; why it failed shows in it. Open while mounted, as DialogFrame.
 */
export function CancelSubscriptionDialog<TResult>({
  subject,
  consequence,
  cancel,
  canceledMessage,
  onClose,
}: {
  /** What stops being charged, where there can be more than one ("Ink club, Ink of the month"). */
  subject?: string | undefined;
  /** What happens then, after "Nothing more will be charged.": what is kept, until when. */
  consequence?: ReactNode;
  /** Cancels the subscription. */
  cancel: UseMutationResult<TResult, Error, void>;
  /** The toast once canceled, from the answer. */
  canceledMessage: (result: TResult) => string;
  onClose: () => void;
}) {
  const confirm = () =>
    cancel.mutate(undefined, {
      onSuccess: (result) => {
        toast.success(canceledMessage(result));
        onClose();
      },
    });

  return (
    <ConfirmDialog
      title="Cancel your subscription?"
      description={
        <>
          Nothing more will be charged{subject ? ` for ${subject}` : ''}.{consequence ? <> {consequence}</> : null}
        </>
      }
      onClose={onClose}
      cancelLabel="Keep subscription"
      confirmLabel="Cancel subscription"
      pendingLabel="Canceling…"
      onConfirm={confirm}
      pending={cancel.isPending}
      error={cancel.isError ? cancel.error.message || 'Canceling failed. Try again.' : null}
      danger
    />
  );
}
