import { Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { TokenStatusSource } from '@platform/auth';
import { MetricsRegistry } from './metrics.registry';

/** Puts the revocation check's own metrics (libs/auth) in the service's registry, where there is one. */
@Injectable()
export class TokenStatusMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsRegistry,
    @Optional() private readonly tokenStatus?: TokenStatusSource,
  ) {}

  onModuleInit(): void {
    this.tokenStatus?.registerMetrics(this.metrics.registry);
  }
}
