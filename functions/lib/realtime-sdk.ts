/**
 * The parts of the AWS SDK that push to open connections (realtime.ts), loaded by the first push
 * rather than when the function is imported; in a Lambda bundle, a chunk of its own.
 */
export { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
