import { Module } from '@nestjs/common';
import { PositionCategoriesController, PositionsController } from './positions.controller';
import { PositionCategoriesRepository, PositionsRepository } from './positions.repository';
import { PositionsService } from './positions.service';

@Module({
  controllers: [PositionsController, PositionCategoriesController],
  providers: [PositionsRepository, PositionCategoriesRepository, PositionsService],
  exports: [PositionsService],
})
export class PositionsModule {}
