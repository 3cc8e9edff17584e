import { Module } from '@nestjs/common';
import { LeavesController } from './leaves.controller';
import { LeavesRepository } from './leaves.repository';
import { LeavesService } from './leaves.service';

@Module({
  controllers: [LeavesController],
  providers: [LeavesRepository, LeavesService],
  exports: [LeavesService],
})
export class LeavesModule {}
