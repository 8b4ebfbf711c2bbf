import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { currentFunction } from '../../functions/lib/function-environment';

/** What IAM's grantReadData allows; everything else on the table needs grantReadWriteData. */
const TABLE_READ_COMMANDS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
  'DescribeTableCommand',
  'ConditionCheckItemCommand',
]);

const MIDDLEWARE_NAME = 'localTableGrants';

/** The error DynamoDB answers when the caller's role lacks the action, shaped as the SDK raises it. */
export class LocalAccessDenied extends DynamoDBServiceException {
  constructor(functionName: string, action: string, tableName: string) {
    super({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message: `User: arn:aws:sts::000000000000:assumed-role/${functionName}/local is not authorized to perform: dynamodb:${action} on resource: arn:aws:dynamodb:local:000000000000:table/${tableName} because no identity-based policy allows the dynamodb:${action} action`,
    });
  }
}

/**
 * Refuses a table write from a function whose route grants only reads, as IAM does in AWS. The
 * check runs inside the client, so it covers every path to the table (ElectroDB, transactions,
 * batches), and code outside any function (seeding, tests) is not limited.
 */
export function enforceTableGrants(client: DynamoDBDocumentClient): void {
  if (client.middlewareStack.identify().some((entry) => entry.startsWith(MIDDLEWARE_NAME))) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const scope = currentFunction();
      const command = context.commandName ?? '';
      if (scope && scope.capabilities.table !== 'read-write' && !TABLE_READ_COMMANDS.has(command)) {
        const input = args.input as { TableName?: string };
        throw new LocalAccessDenied(scope.name, command.replace(/Command$/, ''), input.TableName ?? 'table');
      }
      return next(args);
    },
    { step: 'initialize', name: MIDDLEWARE_NAME, priority: 'high' },
  );
}
