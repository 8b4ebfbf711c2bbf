import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pusherAuthQuerySchema } from '../../shared/schemas/sso';
import { LOCAL_PUSHER_APP_KEY, LOCAL_PUSHER_SECRET, loadConfig } from '../../functions/lib/config';
import { pusherChannelFor, signPusherAuth } from '../../functions/account/lib/pusher';

const BASE_ENV = {
  TABLE_NAME: 'pusher-auth-test',
  ALLOWED_ORIGINS: 'https://app.example.com',
  DECLARED_SETTINGS: 'pusher',
};

describe('signing a Pusher private-channel subscription', () => {
  it('matches the worked example of Pusher’s auth-signature documentation', () => {
    // Act
    const auth = signPusherAuth({ key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' }, '1234.1234', 'private-foobar');

    // Assess
    expect(auth).toBe('278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4');
  });

  it('is the key, a colon and the hex HMAC-SHA256 of "<socket_id>:<channel_name>"', () => {
    // Prepare
    const credentials = { key: 'key-1', secret: 'secret-1' };
    const expected = createHmac('sha256', 'secret-1').update('99.42:private-user-abc').digest('hex');

    // Act
    const auth = signPusherAuth(credentials, '99.42', 'private-user-abc');

    // Assess
    expect(auth).toBe(`key-1:${expected}`);
    expect(signPusherAuth(credentials, '99.43', 'private-user-abc')).not.toBe(auth);
    expect(signPusherAuth({ ...credentials, secret: 'secret-2' }, '99.42', 'private-user-abc')).not.toBe(auth);
  });

  it("names each user's own private channel", () => {
    expect(pusherChannelFor('u-1')).toBe('private-user-u-1');
  });
});

describe('the auth request query', () => {
  it.each(['1234.5678', '0.1'])('accepts the socket id %s', (socketId) => {
    expect(pusherAuthQuerySchema.safeParse({ socket_id: socketId, channel_name: 'private-user-x' }).success).toBe(true);
  });

  // A socket id with a colon would make the signed string sign another channel (GHSA-7v7m-pcw5-h3cg).
  it.each(['1234.5678:private-user-other', '1234', 'abc.def', '1.2.3', ' 1.2', '', '1.2\n'])(
    'refuses the socket id %j',
    (socketId) => {
      expect(pusherAuthQuerySchema.safeParse({ socket_id: socketId, channel_name: 'private-user-x' }).success).toBe(false);
    },
  );

  it('refuses unknown query fields and a missing channel', () => {
    expect(pusherAuthQuerySchema.safeParse({ socket_id: '1.2' }).success).toBe(false);
    expect(pusherAuthQuerySchema.safeParse({ socket_id: '1.2', channel_name: 'c', extra: '1' }).success).toBe(false);
  });
});

describe('realtime and sign-on settings', () => {
  it('uses the local-only development pair locally when none is set', () => {
    // Act
    const config = loadConfig({ ...BASE_ENV, STAGE: 'local' });

    // Assess
    expect(config.pusher).toEqual({ key: LOCAL_PUSHER_APP_KEY, secret: LOCAL_PUSHER_SECRET });
  });

  it('has no realtime credentials in AWS unless both are set', () => {
    expect(loadConfig({ ...BASE_ENV, STAGE: 'prod' }).pusher).toBeUndefined();
    expect(loadConfig({ ...BASE_ENV, STAGE: 'prod', PUSHER_APP_KEY: 'k', PUSHER_SECRET: 's' }).pusher).toEqual({
      key: 'k',
      secret: 's',
    });
    expect(() => loadConfig({ ...BASE_ENV, STAGE: 'prod', PUSHER_APP_KEY: 'k' }).pusher).toThrow(/PUSHER_SECRET/);
  });
});
