/** ElectroDB service name: the prefix of every key this product writes. */
export const SERVICE_NAME = 'toppubs';
