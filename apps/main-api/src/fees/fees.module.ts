import { Module } from '@nestjs/common';
import { FeesController } from './fees.controller';
import { FeesRepository } from './fees.repository';
import { FeesService } from './fees.service';

@Module({ controllers: [FeesController], providers: [FeesRepository, FeesService], exports: [FeesService] })
export class FeesModule {}
