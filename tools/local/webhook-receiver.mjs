#!/usr/bin/env node
// A webhook receiver written from the Standard Webhooks convention alone (standardwebhooks.com), to
// try the platform's outbound webhooks locally (README "Change feed and outbound webhooks"):
//   WEBHOOK_SECRET=whsec_... node tools/local/webhook-receiver.mjs [port=$WEBHOOK_RECEIVER_PORT or 8787]
// `npm start` allows plain-http webhooks to that port of 127.0.0.1 only (tools/local/webhook-origin.mjs).
// It checks the signature and the timestamp, answers 2xx once per webhook-id (a retry of a delivery
// it already processed is acknowledged and ignored), and prints each event on one line.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { webhookReceiverPort } from './webhook-origin.mjs';

const secret = process.env.WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  console.error('WEBHOOK_SECRET must be the signing secret the subscription was created with (whsec_...)');
  process.exit(1);
}
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const port = process.argv[2] ? Number(process.argv[2]) : webhookReceiverPort(process.env);
const TOLERANCE_SECONDS = 5 * 60;
const processed = new Set();

function verify(headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) {
    return 'missing webhook-id, webhook-timestamp or webhook-signature';
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    return 'timestamp outside the tolerance';
  }
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  // The header may list several space-separated "v1,<base64>" signatures (during a secret rotation).
  const valid = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  return valid ? undefined : 'bad signature';
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const problem = verify(request.headers, body);
    if (problem) {
      console.error(`refused: ${problem}`);
      response.writeHead(401).end();
      return;
    }
    const id = request.headers['webhook-id'];
    if (!processed.has(id)) {
      processed.add(id);
      const event = JSON.parse(body);
      console.log(`${id} ${event.type} ${JSON.stringify(event.data)}`);
    }
    response.writeHead(204).end();
  });
}).listen(port, '127.0.0.1', () => console.error(`listening on http://127.0.0.1:${port}`));
