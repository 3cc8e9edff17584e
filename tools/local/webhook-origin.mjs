// Where `npm start` lets outbound webhooks go over plain http: the local receiver
// (tools/local/webhook-receiver.mjs) and nothing else on this machine. Allowing every port of
// 127.0.0.1 let any subscription reach the local database, the services and whatever else listens.

/** The port the local receiver listens on unless told otherwise (`WEBHOOK_RECEIVER_PORT`). */
export const DEFAULT_WEBHOOK_RECEIVER_PORT = 8787;

/** The receiver's port: `WEBHOOK_RECEIVER_PORT`, or the default. */
export function webhookReceiverPort(env) {
  return Number(env.WEBHOOK_RECEIVER_PORT ?? DEFAULT_WEBHOOK_RECEIVER_PORT);
}

/**
 * SUBSCRIPTION_HTTP_ALLOWED_ORIGINS as `npm start` runs integrations: the operator's own value if
 * set, otherwise the local receiver's exact origin.
 */
export function localWebhookAllowedOrigins(env) {
  return env.SUBSCRIPTION_HTTP_ALLOWED_ORIGINS ?? `http://127.0.0.1:${webhookReceiverPort(env)}`;
}
