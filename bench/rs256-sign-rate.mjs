// How many access tokens one Node process signs per second with main-api's key and nothing else:
// the ceiling of the client-credentials token endpoint (issue 19 asks for at least half of it).
// Run by run-all.mjs as its own process, with the key in BENCH_SIGNING_KEY and the seconds as argv.
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const key = createPrivateKey(process.env.BENCH_SIGNING_KEY ?? '');
const seconds = Number(process.argv[2] ?? 10);
const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = encode({ alg: 'RS256', typ: 'at+jwt', kid: 'bench' });

let signed = 0;
const started = performance.now();
const until = started + seconds * 1000;
while (performance.now() < until) {
  const now = Math.floor(Date.now() / 1000);
  const input = `${header}.${encode({
    iss: 'agency-platform',
    aud: 'agency-platform-api',
    sub: 'client:1',
    company_id: 1,
    role_id: 1,
    iat: now,
    exp: now + 3600,
    jti: randomUUID(),
    sid: randomUUID(),
    epoch: 0,
  })}`;
  sign('sha256', Buffer.from(input), key).toString('base64url');
  signed += 1;
}
process.stdout.write(
  JSON.stringify({ perSecond: Math.round(signed / ((performance.now() - started) / 1000)) }),
);
