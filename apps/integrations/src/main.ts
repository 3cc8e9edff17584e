import 'reflect-metadata';
import { runService } from '@platform/runtime';
import { IntegrationsEnv } from './config/integrations.env';
import { integrationsService } from './integrations.service';

void runService(integrationsService, IntegrationsEnv);
