import { Module } from '@nestjs/common';
import { MappingsController } from './mappings.controller';
import { MappingsRepository } from './mappings.repository';
import { MappingsService } from './mappings.service';

@Module({ controllers: [MappingsController], providers: [MappingsService, MappingsRepository] })
export class MappingsModule {}
