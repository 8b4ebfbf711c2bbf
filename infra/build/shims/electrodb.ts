import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import documentCommands from './electrodb-document-commands.cjs';

/**
 * What `electrodb` means inside Lambda bundles: ElectroDB itself, after handing it the document
 * client commands it builds requests with. ElectroDB reads them only when a request is made,
 * long after this module has run.
 */
Object.assign(documentCommands as Record<string, unknown>, {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
});

export * from 'electrodb';
