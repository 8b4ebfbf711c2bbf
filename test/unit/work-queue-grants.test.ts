import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../shared/capabilities';
import { loadConfig, QueueNotDeclared } from '../../functions/lib/config';
import { sendWorkMessages } from '../../functions/lib/work-queue';
import { type DeploymentSettings, environmentFor } from '../../infra/function-environment';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/toppubs-source-collection.fifo';
const DEPLOYMENT: DeploymentSettings = {
  common: { STAGE: 'prod', TABLE_NAME: 'toppubs', ALLOWED_ORIGINS: 'https://toppubs.example' },
  email: {},
  bucket: {},
  payments: {},
  realtime: {},
  queues: { 'source-collection': { SOURCE_COLLECTION_QUEUE_URL: QUEUE_URL } },
  settings: {},
};

describe('work queues, reachable only from the functions that declare them', () => {
  it("gives a function that sends to the collection queue that queue's URL", () => {
    // Prepare
    const planner = capabilitiesOf({ queues: ['source-collection'] }, { table: 'read' });

    // Act
    const config = loadConfig(environmentFor(planner, DEPLOYMENT));

    // Assess
    expect(config.queueUrl('source-collection')).toBe(QUEUE_URL);
  });

  it('refuses a send from a function whose capabilities do not name the queue, saying what to declare', () => {
    // Prepare
    const route = capabilitiesOf({}, { table: 'read-write' });
    const environment = environmentFor(route, DEPLOYMENT);

    // Act
    const send = () => loadConfig(environment).queueUrl('source-collection');

    // Assess
    expect(environment).not.toHaveProperty('SOURCE_COLLECTION_QUEUE_URL');
    expect(send).toThrow(QueueNotDeclared);
    expect(send).toThrow("add 'source-collection' to its capabilities.queues");
  });

  it('fails the deployment of a function that declares a queue the deployment does not have', () => {
    // Prepare
    const planner = capabilitiesOf({ queues: ['source-collection'] }, { table: 'read' });

    // Act
    const build = () => environmentFor(planner, { ...DEPLOYMENT, queues: {} });

    // Assess
    expect(build).toThrow('sends to the source-collection queue, but this deployment has no such queue');
  });
});

describe('sending to a work queue', () => {
  it('sends nothing and reads no config when there is nothing to send, as after an hour with no news', async () => {
    // Prepare
    const sqs = mockClient(SQSClient);

    // Act
    const sent = sendWorkMessages('notification-fanout', []);

    // Assess
    await expect(sent).resolves.toBeUndefined();
    expect(sqs.calls()).toHaveLength(0);
    sqs.restore();
  });
});
