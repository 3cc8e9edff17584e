import { Module } from '@nestjs/common';
import { RatecardsController } from './ratecards.controller';
import { RatecardsRepository } from './ratecards.repository';
import { RatecardsService } from './ratecards.service';

@Module({
  controllers: [RatecardsController],
  providers: [RatecardsRepository, RatecardsService],
  exports: [RatecardsService],
})
export class RatecardsModule {}
