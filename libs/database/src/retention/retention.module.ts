import { Module, type DynamicModule } from '@nestjs/common';
import { RETENTION_SETTINGS, type RetentionSettings } from './retention-policy';
import { RetentionPruner } from './retention-pruner';

/** A service's `RetentionPruner`, global so a feature can run its own table's pruning on demand. */
@Module({})
export class RetentionModule {
  static forRoot(settings: RetentionSettings): DynamicModule {
    return {
      module: RetentionModule,
      global: true,
      providers: [{ provide: RETENTION_SETTINGS, useValue: settings }, RetentionPruner],
      exports: [RetentionPruner],
    };
  }
}
