import { FirehoseServiceException } from '@aws-sdk/client-firehose';
import { S3ServiceException } from '@aws-sdk/client-s3';

/**
 * The errors S3 and Firehose answer when the caller's role lacks the action, shaped as the SDK
 * raises them: subclasses of the SDK's service exceptions, since handlers catch them as such.
 * grants.ts loads this module when it first refuses a call, not when the runtime is imported:
 * S3's client is a tenth of a second or more that every test file's fork and every `npm start`
 * would otherwise pay for, while most of them never see a refusal (the table's error stays in
 * grants.ts: DynamoDB's client is loaded anyway).
 */

/** The error S3 answers when the caller's role lacks the action. */
export class LocalBucketAccessDenied extends S3ServiceException {
  constructor(functionName: string, command: string) {
    super({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: { httpStatusCode: 403 },
      message: `User: arn:aws:sts::000000000000:assumed-role/${functionName}/local is not authorized to perform: s3:${command.replace(/Command$/, '')} because no identity-based policy allows it`,
    });
  }
}

/** The error Firehose answers when the caller's role lacks the action. */
export class LocalFirehoseAccessDenied extends FirehoseServiceException {
  constructor(functionName: string, command: string) {
    super({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message: `User: arn:aws:sts::000000000000:assumed-role/${functionName}/local is not authorized to perform: firehose:${command.replace(/Command$/, '')} because no identity-based policy allows it`,
    });
  }
}
