import {
  type Capabilities,
  DECLARED_SETTINGS_VARIABLE,
  SETTING_GROUPS,
  type SettingGroup,
  type SettingName,
} from '../shared/capabilities';
import type { QueueName } from '../shared/queues';

/**
 * The values one deployment (a CDK stage, or the local runtime) has for its functions, sorted
 * by the capability that unlocks them. In CDK some values are tokens resolved at deploy time.
 */
export interface DeploymentSettings {
  /** Every function: stage, table name, allowed origins, web origin, cookie domain, realtime url. */
  common: Readonly<Record<string, string>>;
  /** Only functions with the email capability: the sender address (and locally the outbox). */
  email: Readonly<Record<string, string>>;
  /** Only functions with bucket access: the bucket's name (and locally the emulator). */
  bucket: Readonly<Record<string, string>>;
  /** Only functions with the realtime capability: the WebSocket API's management endpoint. */
  realtime: Readonly<Record<string, string>>;
  /** Only functions with the payments capability: which gateway, and where its keys or its local stand-in are. */
  payments: Readonly<Record<string, string>>;
  /**
   * Only functions with the merchantKeys capability ('seal' or 'open'): how merchants' keys are
   * sealed (the KMS key's ARN in AWS; the key file and the local gateway locally). Each also gets
   * MERCHANT_KEYS_MODE, its own capability. Optional: a deployment without it gives such a
   * function only the mode, and config then refuses it (CDK refuses it at synth).
   */
  merchantKeys?: Readonly<Record<string, string>> | undefined;
  /**
   * Only functions with an analytics capability: the events bucket and delivery stream (and
   * locally the emulators). Each also gets ANALYTICS_ACCESS, its own capability. Optional: a
   * deployment without it gives such a function only the mode, and config then refuses it.
   */
  analytics?: Readonly<Record<string, string>> | undefined;
  /**
   * Per work queue, what a function that sends to it gets: the queue's URL (in its
   * `urlVariable`), and locally the emulator's endpoint (SQS_ENDPOINT).
   */
  queues: Readonly<Partial<Record<QueueName, Readonly<Record<string, string>>>>>;
  /** Optional settings with a value, secrets included; each reaches only the groups' functions. */
  settings: Readonly<Partial<Record<SettingName, string>>>;
}

export function settingNamesOf(group: SettingGroup): readonly SettingName[] {
  const { variables, secrets } = SETTING_GROUPS[group];
  return [...variables, ...secrets];
}

/**
 * The environment one function gets: what its capabilities unlock and nothing else. CDK and
 * the local runtime both build it here, so a setting a handler reads reaches it in both or in
 * neither, and a test of the local runtime proves the deployed function has it too.
 */
export function environmentFor(capabilities: Capabilities, deployment: DeploymentSettings): Record<string, string> {
  const environment: Record<string, string> = { ...deployment.common };
  if (capabilities.email) Object.assign(environment, deployment.email);
  if (capabilities.bucket !== 'none') Object.assign(environment, deployment.bucket);
  if (capabilities.realtime) Object.assign(environment, deployment.realtime);
  if (capabilities.payments) Object.assign(environment, deployment.payments);
  if (capabilities.merchantKeys !== 'none') {
    Object.assign(environment, deployment.merchantKeys ?? {}, { MERCHANT_KEYS_MODE: capabilities.merchantKeys });
  }
  if (capabilities.analytics !== 'none') {
    Object.assign(environment, deployment.analytics ?? {}, { ANALYTICS_ACCESS: capabilities.analytics });
  }
  for (const queue of capabilities.queues) {
    const values = deployment.queues[queue];
    if (!values) throw new Error(`A function sends to the ${queue} queue, but this deployment has no such queue`);
    Object.assign(environment, values);
  }
  for (const group of capabilities.settings) {
    for (const name of settingNamesOf(group)) {
      const value = deployment.settings[name];
      if (value !== undefined && value !== '') environment[name] = value;
    }
  }
  environment[DECLARED_SETTINGS_VARIABLE] = [...capabilities.settings].sort().join(',');
  return environment;
}
