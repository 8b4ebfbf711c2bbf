import { type FormEvent, useId, useState } from 'react';
import { connectGatewayBodySchema } from '@shared/schemas/merchant';
import { Button } from '../../../components/button';
import { type ConnectGatewayBody, useConnectMerchantGateway } from '../api/connect-merchant-gateway';
import type { MerchantAccountView } from '../api/merchant-keys';
import { type FormErrors, formErrors, issueErrors } from '../lib/form-errors';
import { TextField } from '../../../components/text-field';
import { type Choice, ChoiceFieldset } from './choice-fieldset';
import { FormAlert } from './form-alert';
import pageStyles from '../../../components/page.module.css';
import styles from './merchant.module.css';

const FIELDS = ['merchantId', 'publicKey', 'privateKey'] as const;
type Field = (typeof FIELDS)[number];
type KeysEnvironment = 'sandbox' | 'production';

const ENVIRONMENTS: readonly Choice<KeysEnvironment>[] = [
  { value: 'sandbox', name: 'Sandbox', detail: 'Braintree’s test environment: test cards only.' },
  { value: 'production', name: 'Production', detail: 'Your live account: real cards, real money.' },
];

/**
 * Connecting the shop's own payment account: a local test account in one click (the local
 * runtime makes one; the live site refuses it, and its refusal shows here), or the keys of a
 * Braintree sandbox or production account. The private key is a password field, sent once and
 * never shown again: the answer names only the environment and the merchant id.
 */
export function ConnectGatewayForm({
  userId,
  onConnected,
}: {
  userId: string;
  onConnected: (account: MerchantAccountView) => void;
}) {
  const localTitleId = useId();
  const keysTitleId = useId();
  const [attempt, setAttempt] = useState<'local' | 'keys' | null>(null);
  const [environment, setEnvironment] = useState<KeysEnvironment>('sandbox');
  const [keys, setKeys] = useState({ merchantId: '', publicKey: '', privateKey: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });
  const connect = useConnectMerchantGateway(userId, (account) => {
    // The key leaves the page's memory with the form.
    setKeys({ merchantId: '', publicKey: '', privateKey: '' });
    onConnected(account);
  });

  const send = (body: ConnectGatewayBody, which: 'local' | 'keys') => {
    if (connect.isPending) return;
    setAttempt(which);
    setErrors({ fields: {} });
    connect.mutate(body, { onError: (error) => setErrors(formErrors(error, FIELDS)) });
  };

  const submitKeys = (event: FormEvent) => {
    event.preventDefault();
    const checked = connectGatewayBodySchema.safeParse({ environment, ...keys });
    if (!checked.success) {
      setAttempt('keys');
      setErrors(issueErrors(checked.error.issues, FIELDS));
      return;
    }
    send(checked.data, 'keys');
  };

  const edit = (field: Field) => (event: { target: { value: string } }) => {
    setKeys((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, fields: { ...current.fields, [field]: undefined } }));
  };

  return (
    <>
      <section className={pageStyles.card} aria-labelledby={localTitleId}>
        <h2 id={localTitleId} className={pageStyles.sectionTitle}>
          Try it with a local test account
        </h2>
        <p className={pageStyles.muted}>
          For a copy of the site running on your own machine: a test account at the local payment gateway, with demo plans to sell
          subscriptions on. No real money moves. The live site does not offer it.
        </p>
        {attempt === 'local' ? <FormAlert message={errors.form} /> : null}
        <div className={pageStyles.actions}>
          <Button
            onClick={() => send({ environment: 'local' }, 'local')}
            disabled={connect.isPending}
            aria-busy={connect.isPending && attempt === 'local'}
          >
            {connect.isPending && attempt === 'local' ? 'Connecting…' : 'Use a local test account'}
          </Button>
        </div>
      </section>
      <section className={pageStyles.card} aria-labelledby={keysTitleId}>
        <h2 id={keysTitleId} className={pageStyles.sectionTitle}>
          Connect your Braintree account
        </h2>
        <p className={pageStyles.muted}>
          Your customers pay into your own Braintree account. Find these keys in Braintree’s Control Panel, under Settings › API.
          They are checked with Braintree, then stored encrypted: the private key is never shown again.
        </p>
        <form className={styles.form} onSubmit={submitKeys} noValidate aria-labelledby={keysTitleId}>
          <ChoiceFieldset legend="Environment" choices={ENVIRONMENTS} value={environment} onChange={setEnvironment} />
          <div className={styles.fieldGrid}>
            <TextField
              label="Merchant ID"
              value={keys.merchantId}
              onChange={edit('merchantId')}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              error={errors.fields.merchantId}
            />
            <TextField
              label="Public key"
              value={keys.publicKey}
              onChange={edit('publicKey')}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              error={errors.fields.publicKey}
            />
            <TextField
              className={styles.wide}
              label="Private key"
              type="password"
              value={keys.privateKey}
              onChange={edit('privateKey')}
              autoComplete="new-password"
              spellCheck={false}
              hint="Sent once over an encrypted connection and stored encrypted. Nobody, you included, can read it back."
              error={errors.fields.privateKey}
            />
          </div>
          {attempt === 'keys' ? <FormAlert message={errors.form} /> : null}
          <div className={pageStyles.actions}>
            <Button type="submit" disabled={connect.isPending} aria-busy={connect.isPending && attempt === 'keys'}>
              {connect.isPending && attempt === 'keys' ? 'Checking with Braintree…' : 'Connect Braintree account'}
            </Button>
          </div>
        </form>
      </section>
    </>
  );
}
