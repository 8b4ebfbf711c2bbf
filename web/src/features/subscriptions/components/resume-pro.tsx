import { Button } from '../../../components/button';
import { toast } from '../../../lib/toast';
import { useResumeSubscription } from '../api/resume-subscription';
import type { SubscriptionView } from '../api/subscription-keys';
import { formatDay, formatMoney } from '../lib/format';
import pageStyles from '../../../components/page.module.css';

/**
 * The way back from a cancellation while the paid time runs (`resumeRenewsOn` is set): one click,
 * nothing charged today, and the plan renews on the day it would have.
 */
export function ResumePro({ userId, subscription }: { userId: string; subscription: SubscriptionView }) {
  const resume = useResumeSubscription(userId, subscription.id);
  if (!subscription.resumeRenewsOn) return null;
  const renewsOn = formatDay(subscription.resumeRenewsOn);
  const onResume = async () => {
    const { subscription: resumed } = await resume.mutateAsync();
    toast.success(`Pro is resumed: it renews on ${resumed.nextBillingDate ? formatDay(resumed.nextBillingDate) : renewsOn}.`);
  };
  return (
    <div>
      <p className={pageStyles.muted}>
        Changed your mind? Resume Pro and nothing is charged today: it renews on {renewsOn} at {formatMoney(subscription.price)},
        on your {subscription.paymentMethod.cardType} ending {subscription.paymentMethod.last4}.
      </p>
      {resume.isError ? (
        <p role="alert">{resume.error instanceof Error ? resume.error.message : 'Pro could not be resumed.'}</p>
      ) : null}
      <div className={pageStyles.actions}>
        <Button onClick={() => void onResume().catch(() => undefined)} disabled={resume.isPending}>
          {resume.isPending ? 'Resuming…' : 'Resume Pro'}
        </Button>
      </div>
    </div>
  );
}
