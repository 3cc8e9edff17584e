import { Module } from '@nestjs/common';
import { RatecardsController } from './ratecards.controller';
import { RatecardsService } from './ratecards.service';

@Module({ controllers: [RatecardsController], providers: [RatecardsService], exports: [RatecardsService] })
export class RatecardsModule {}
