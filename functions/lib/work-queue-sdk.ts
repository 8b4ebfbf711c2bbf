/**
 * The parts of the AWS SDK that send to work queues (work-queue.ts), loaded by the first send
 * rather than when the function is imported; in a Lambda bundle, a chunk of its own.
 */
export { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
