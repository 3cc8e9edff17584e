import { Controller, Get } from '@nestjs/common';
import { CurrentPrincipal, Permission, RequirePermission, type Principal } from '@platform/auth';

/**
 * Routes added to a service under test only, to exercise authentication and the role matrix through
 * the real guards before the service has feature routes of each kind.
 */
@Controller('test-probe')
export class TestProbeController {
  @Get('principal')
  principal(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }

  @Get('setup')
  @RequirePermission(Permission.ManageCompanySetup)
  setup(): { allowed: true } {
    return { allowed: true };
  }

  @Get('delivery')
  @RequirePermission(Permission.ManageDelivery)
  delivery(): { allowed: true } {
    return { allowed: true };
  }

  @Get('integrations')
  @RequirePermission(Permission.UseIntegrations)
  integrations(): { allowed: true } {
    return { allowed: true };
  }
}
