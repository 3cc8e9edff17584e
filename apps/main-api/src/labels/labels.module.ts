import { Module } from '@nestjs/common';
import { LabelCategoriesController, LabelsController } from './labels.controller';
import { LabelsService } from './labels.service';

@Module({
  controllers: [LabelsController, LabelCategoriesController],
  providers: [LabelsService],
  exports: [LabelsService],
})
export class LabelsModule {}
