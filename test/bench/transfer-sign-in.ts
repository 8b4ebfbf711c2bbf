/** Signs a sender in for the transfer benchmarks; prints their session token as one JSON line. */
import { signIn } from './bench-session';

const sender = await signIn('transfer-sender');
console.log(JSON.stringify({ token: sender.token }));
