import type { UseQueryResult } from '@tanstack/react-query';
import type { PaymentClient } from '@shared/schemas/subscriptions';
import { PageSpinner } from '../spinner';
import { ErrorState } from '../state-message';
import { type PaymentFormProps, PaymentMethodForm } from './payment-method-form';

/**
 * The card form once its client token has come: a spinner until then, and the way to ask again
 * when it could not be had. `client` is the feature's query for the token of the payment
 * account the card is for.
 */
export function QueriedPaymentMethodForm({ client, ...props }: PaymentFormProps & { client: UseQueryResult<PaymentClient> }) {
  if (client.data) return <PaymentMethodForm client={client.data} {...props} />;
  if (client.isError) {
    return (
      <ErrorState
        title="The card form could not be loaded"
        error={client.error}
        onRetry={() => void client.refetch()}
        retrying={client.isFetching}
        compact
      />
    );
  }
  return <PageSpinner label="Loading the card form" />;
}
