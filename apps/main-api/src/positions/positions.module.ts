import { Module } from '@nestjs/common';
import { PositionCategoriesController, PositionsController } from './positions.controller';
import { PositionsService } from './positions.service';

@Module({
  controllers: [PositionsController, PositionCategoriesController],
  providers: [PositionsService],
  exports: [PositionsService],
})
export class PositionsModule {}
