import { Module } from '@nestjs/common';
import { LabelCategoriesController, LabelsController } from './labels.controller';
import { LabelsRepository } from './labels.repository';
import { LabelsService } from './labels.service';

@Module({
  controllers: [LabelsController, LabelCategoriesController],
  providers: [LabelsRepository, LabelsService],
  exports: [LabelsService],
})
export class LabelsModule {}
