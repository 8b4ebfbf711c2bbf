import { type Capabilities, capabilitiesOf } from './capabilities';

/**
 * Live updates (today: the bell's unseen counts). In AWS an API Gateway WebSocket API calls
 * these handlers and functions push through its management API; the local runtime serves the
 * same handlers on its own port and emulates the management API, so both run the same code.
 */

/** The one channel a user's connections listen on: their own. */
export const userChannel = (userId: string): string => `user-${userId}`;

/** Where the local runtime accepts WebSocket upgrades (in AWS: the WebSocket API's own URL). */
export const LOCAL_REALTIME_PATH = '/realtime';
/** Where the local runtime emulates the management API (`POST {endpoint}/@connections/{id}`). */
export const LOCAL_REALTIME_MANAGEMENT_PATH = '/__local/realtime';

/**
 * API Gateway's own limits, which the local runtime enforces too: a connection lives at most
 * 2 hours and is closed after 10 idle minutes; a message frame is at most 32 KB.
 */
export const REALTIME_LIMITS = {
  maxConnectionSeconds: 2 * 3600,
  idleTimeoutSeconds: 10 * 60,
  maxFrameBytes: 32 * 1024,
} as const;

/** How long a ticket from the realtime client route may wait before it connects. */
export const REALTIME_TICKET_SECONDS = 60;
/** Open connections (tabs, devices) one person may have at once. */
export const MAX_CONNECTIONS_PER_USER = 20;
/** The client pings this often, well inside the idle timeout. */
export const REALTIME_PING_SECONDS = 5 * 60;

export interface RealtimeHandler {
  /** The WebSocket API's route key. */
  routeKey: '$connect' | '$disconnect' | '$default';
  name: string;
  /** The file under functions/ that exports `handler`. */
  handler: string;
  capabilities: Capabilities;
}

export const REALTIME_HANDLERS: readonly RealtimeHandler[] = [
  {
    routeKey: '$connect',
    name: 'realtime-connect',
    handler: 'realtime/connect',
    capabilities: capabilitiesOf({}, { table: 'read-write' }),
  },
  {
    routeKey: '$disconnect',
    name: 'realtime-disconnect',
    handler: 'realtime/disconnect',
    capabilities: capabilitiesOf({}, { table: 'read-write' }),
  },
  {
    routeKey: '$default',
    name: 'realtime-message',
    handler: 'realtime/message',
    capabilities: capabilitiesOf({}, { table: 'read' }),
  },
];
