import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ProjectFinanceController } from './project-finance.controller';
import { ProjectFinanceService } from './project-finance.service';

@Module({
  imports: [ProjectsModule],
  controllers: [ProjectFinanceController],
  providers: [ProjectFinanceService],
})
export class ProjectFinanceModule {}
