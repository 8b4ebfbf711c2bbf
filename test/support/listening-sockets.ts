import { readFileSync } from 'node:fs';

/** /proc/net/tcp writes each 32-bit word of an address in host (little-endian) byte order. */
function wordBytes(hex: string): number[] {
  return [6, 4, 2, 0].map((offset) => parseInt(hex.slice(offset, offset + 2), 16));
}

function decodeAddress(hex: string): string {
  if (hex.length === 8) return wordBytes(hex).join('.');
  const bytes = [0, 8, 16, 24].flatMap((offset) => wordBytes(hex.slice(offset, offset + 8)));
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return `::ffff:${bytes.slice(12).join('.')}`;
  }
  const groups = [];
  for (let index = 0; index < 16; index += 2)
    groups.push((((bytes[index] as number) << 8) | (bytes[index + 1] as number)).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/**
 * The local addresses with a socket listening on `port`, read from the kernel's own tables
 * (/proc/net/tcp and tcp6, Linux): what a server really bound, with no traffic sent anywhere.
 */
export function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [addressHex, portHex] = (local ?? '').split(':');
      // 0A is TCP_LISTEN.
      if (state === '0A' && addressHex && portHex && parseInt(portHex, 16) === port) addresses.push(decodeAddress(addressHex));
    }
  }
  return addresses;
}

export const isLoopbackAddress = (address: string) => address === '::1' || /^(::ffff:)?127\./.test(address);
