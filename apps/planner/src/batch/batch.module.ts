import { Module } from '@nestjs/common';
import { BatchRunner } from '@platform/database';
import { BatchController } from './batch.controller';

@Module({
  controllers: [BatchController],
  providers: [BatchRunner],
})
export class BatchModule {}
