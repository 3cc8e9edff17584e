import { Module } from '@nestjs/common';
import { LeavePolicyController } from './leave-policy.controller';
import { LeavePolicyRepository } from './leave-policy.repository';
import { LeavePolicyService } from './leave-policy.service';
import { LeavesController } from './leaves.controller';
import { LeavesRepository } from './leaves.repository';
import { LeavesService } from './leaves.service';
import { TimeOffController } from './time-off.controller';
import { TimeOffService } from './time-off.service';

@Module({
  controllers: [LeavesController, TimeOffController, LeavePolicyController],
  providers: [LeavesRepository, LeavePolicyRepository, LeavesService, TimeOffService, LeavePolicyService],
  exports: [LeavesService],
})
export class LeavesModule {}
