import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics.registry';
import { TokenStatusMetrics } from './token-status-metrics';

/** `GET /metrics` in Prometheus text format; request timings are recorded by a Fastify hook. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsRegistry, TokenStatusMetrics],
  exports: [MetricsRegistry],
})
export class MetricsModule {}
