import { Module } from '@nestjs/common';
import { ReferenceDataController } from './reference-data.controller';
import { ReferenceDataRepository } from './reference-data.repository';

@Module({ controllers: [ReferenceDataController], providers: [ReferenceDataRepository] })
export class ReferenceDataModule {}
