import { Global, Module } from '@nestjs/common';
import { PlannerClient } from './planner.client';

/** The planner's planned hours, for the forecast and the reports. */
@Global()
@Module({ providers: [PlannerClient], exports: [PlannerClient] })
export class PlannerClientModule {}
