import { LOCAL_GATEWAY_KEYS } from '../../../shared/payments/local-gateway';
import { GatewayClock } from './billing';
import {
  emptyMerchant,
  type GatewayState,
  type LocalGatewayPlan,
  type MerchantState,
  StateFile,
  type StoredPaymentMethod,
} from './state';
import type { WebhookTarget } from './webhooks';

/**
 * What the gateway knows, as it runs: every merchant's records and the gateway's clock, saved
 * to the state file when the caller says so (once per request or billing run, not per change).
 */
export class GatewayStore {
  readonly clock: GatewayClock;

  private constructor(
    readonly state: GatewayState,
    private readonly file: StateFile,
  ) {
    this.clock = new GatewayClock(state);
  }

  static async open(dataDir: string, log: (line: string) => void): Promise<GatewayStore> {
    const file = new StateFile(dataDir, log);
    return new GatewayStore(await file.load(), file);
  }

  /** The local merchant: its keys are fixed; its webhook URL and plans are this start's. */
  setUpLocalMerchant(webhookUrl: string, plans: readonly LocalGatewayPlan[]): void {
    const keys = {
      id: LOCAL_GATEWAY_KEYS.merchantId,
      publicKey: LOCAL_GATEWAY_KEYS.publicKey,
      privateKey: LOCAL_GATEWAY_KEYS.privateKey,
    };
    const local =
      this.state.merchants.get(keys.id) ?? emptyMerchant({ ...keys, webhookUrl, currency: plans[0]?.currency ?? 'USD' });
    Object.assign(local, { ...keys, webhookUrl, currency: plans[0]?.currency ?? local.currency });
    local.plans = new Map(plans.map((plan) => [plan.id, plan]));
    this.state.merchants.set(local.id, local);
  }

  merchant(id: string): MerchantState | undefined {
    return this.state.merchants.get(id);
  }

  merchantWithPublicKey(publicKey: string): MerchantState | undefined {
    return [...this.state.merchants.values()].find((merchant) => merchant.publicKey === publicKey);
  }

  add(merchant: MerchantState): void {
    this.state.merchants.set(merchant.id, merchant);
  }

  /** A payment method's token is unique across merchants, as Braintree's are. */
  isTokenTaken(token: string): boolean {
    return [...this.state.merchants.values()].some((merchant) => merchant.paymentMethods.has(token));
  }

  paymentMethod(token: string): { merchant: MerchantState; method: StoredPaymentMethod } | undefined {
    for (const merchant of this.state.merchants.values()) {
      const method = merchant.paymentMethods.get(token);
      if (method) return { merchant, method };
    }
    return undefined;
  }

  webhookTarget(merchantId: string): WebhookTarget | undefined {
    const merchant = this.state.merchants.get(merchantId);
    return merchant
      ? {
          keys: { merchantId: merchant.id, publicKey: merchant.publicKey, privateKey: merchant.privateKey },
          webhookUrl: merchant.webhookUrl,
        }
      : undefined;
  }

  /** Resolves once the records as they are now are on disk. */
  save(): Promise<void> {
    return this.file.save(this.state);
  }

  /** Resolves once every save asked for so far has ended. */
  settled(): Promise<void> {
    return this.file.settled();
  }
}
