/**
 * Loaded into `npm start` with --import by the process tests, to cause what no request should
 * be able to: a file system error while serving a file, a long synchronous stall, and a failure
 * outside any request. Nothing in the product knows about it.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/** Serving /assets/__injected_fault__.js finds the file, then fails to stat it. */
const FAULTY_FILE = '__injected_fault__.js';
/** Serving /assets/__injected_stall__.js holds the event loop for a second first, saying so on stdout. */
const STALLING_FILE = '__injected_stall__.js';
const STALL_MS = 1_000;
const { existsSync, statSync } = fs;
const injected = (path) => String(path).endsWith(FAULTY_FILE) || String(path).endsWith(STALLING_FILE);
fs.existsSync = (path) => injected(path) || existsSync(path);
fs.statSync = (path, ...rest) => {
  if (String(path).endsWith(STALLING_FILE)) {
    // Writes to a pipe are synchronous on Linux: the line is out before the stall begins.
    process.stdout.write('injected: stalling the event loop\n');
    const until = Date.now() + STALL_MS;
    while (Date.now() < until);
  }
  if (injected(path)) {
    throw Object.assign(new Error(`EIO: i/o error, stat '${String(path)}'`), { code: 'EIO' });
  }
  return statSync(path, ...rest);
};
syncBuiltinESMExports();

/** SIGUSR2 fails outside any request: a throw, or a rejection nobody handles (INJECTED_FAULT=rejection). */
process.on('SIGUSR2', () => {
  if (process.env.INJECTED_FAULT === 'rejection') void Promise.reject(new Error('Injected rejection outside any request'));
  else throw new Error('Injected exception outside any request');
});
