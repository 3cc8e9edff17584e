import 'reflect-metadata';
import { runService } from '@platform/runtime';
import { PlannerEnv } from './config/planner.env';
import { plannerService } from './planner.service';

void runService(plannerService, PlannerEnv);
