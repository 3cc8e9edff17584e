import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ProjectFinanceController } from './project-finance.controller';
import { ProjectFinanceRepository } from './project-finance.repository';
import { ProjectFinanceService } from './project-finance.service';

@Module({
  imports: [ProjectsModule],
  controllers: [ProjectFinanceController],
  providers: [ProjectFinanceRepository, ProjectFinanceService],
})
export class ProjectFinanceModule {}
