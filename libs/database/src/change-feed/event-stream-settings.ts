import { IntegerSetting } from '@platform/runtime';

/** What an EventStreamServer reads of its service's environment. */
export interface EventStreamSettings {
  EVENT_STREAMS_PER_COMPANY: number;
  EVENT_STREAMS_PER_REPLICA: number;
  EVENT_STREAM_HEARTBEAT_SECONDS: number;
  EVENT_STREAM_CHECK_SECONDS: number;
  EVENT_STREAM_BUFFER_KIB: number;
}

// TypeScript accepts a class as a mixin's base only when its constructor takes `...args: any[]`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EnvClass = new (...args: any[]) => object;

/**
 * The change stream's variables (issue 41), the same names and defaults in every service that
 * serves one: a mixin, because each service's env class already extends its own base
 * (`MainApiEnv extends withEventStreamSettings(BaseServiceEnv)`).
 */
export function withEventStreamSettings<Base extends EnvClass>(base: Base) {
  class EventStreamEnv extends base implements EventStreamSettings {
    /** Open change streams one company may hold, on all replicas together; more: 503 with Retry-After. */
    @IntegerSetting('EVENT_STREAMS_PER_COMPANY', 1, 100000)
    EVENT_STREAMS_PER_COMPANY = 100;

    /** Open change streams one replica holds; more: 503 with Retry-After (another replica takes it). */
    @IntegerSetting('EVENT_STREAMS_PER_REPLICA', 1, 1000000)
    EVENT_STREAMS_PER_REPLICA = 5000;

    /** A comment line on every stream this often: proxies close streams idle for long. */
    @IntegerSetting('EVENT_STREAM_HEARTBEAT_SECONDS', 1, 60, 'of seconds')
    EVENT_STREAM_HEARTBEAT_SECONDS = 15;

    /** How often each stream's login is checked for revocation (issue 41: at least every 30 s). */
    @IntegerSetting('EVENT_STREAM_CHECK_SECONDS', 1, 30, 'of seconds')
    EVENT_STREAM_CHECK_SECONDS = 30;

    /** What a stream's consumer may leave unread before it is dropped as too slow. */
    @IntegerSetting('EVENT_STREAM_BUFFER_KIB', 16, 65536, 'of KiB')
    EVENT_STREAM_BUFFER_KIB = 1024;
  }
  return EventStreamEnv;
}
