import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import type { GatewayConnection } from '../api/merchant-keys';
import { ENVIRONMENT_NAMES, formatDate } from '../lib/format';
import factsStyles from '../../../components/facts.module.css';
import fieldStyles from '../../../components/field.module.css';
import styles from './merchant.module.css';

/** A value to paste elsewhere, in a read-only field with a Copy button; says when it was copied. */
function CopyField({ label, value, hint }: { label: string; value: string; hint: string }) {
  const id = useId();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <div className={styles.copyRow}>
        <input
          id={id}
          className={fieldStyles.control}
          readOnly
          value={value}
          aria-describedby={`${id}-hint`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      <p id={`${id}-hint`} className={styles.hint}>
        {hint}
      </p>
      <p className={styles.hint} aria-live="polite">
        {copied === 'copied' ? 'Copied.' : copied === 'failed' ? 'Copying failed: select the address and copy it.' : ''}
      </p>
    </div>
  );
}

/**
 * Which payment account is connected (never its keys: the server does not send them back), and
 * the webhook address to give Braintree so renewals and failed payments reach the shop.
 */
export function GatewayFacts({ gateway }: { gateway: GatewayConnection }) {
  return (
    <>
      <dl className={factsStyles.facts}>
        <dt>Account</dt>
        <dd>{ENVIRONMENT_NAMES[gateway.environment]}</dd>
        <dt>Merchant ID</dt>
        <dd>{gateway.merchantId}</dd>
        <dt>Connected</dt>
        <dd>{formatDate(gateway.connectedAt)}</dd>
      </dl>
      <CopyField
        label="Webhook address"
        value={gateway.webhookUrl}
        hint={
          gateway.environment === 'local'
            ? 'The local test gateway sends its webhooks here by itself.'
            : 'In Braintree’s Control Panel, under Settings › Webhooks, add this address with the subscription notifications, so renewals and failed payments reach your shop.'
        }
      />
    </>
  );
}
