import 'reflect-metadata';
import { runService } from '@platform/runtime';
import { MainApiEnv } from './config/main-api.env';
import { mainApiService } from './main-api.service';

void runService(mainApiService, MainApiEnv);
