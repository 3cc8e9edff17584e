import { IntegrationsErrorCode } from '../errors/integrations-error-code';
import { IntegrationsError } from '../errors/integrations.errors';

export class SubscriptionNotFoundError extends IntegrationsError {
  constructor(id: string) {
    super(
      'SubscriptionNotFoundError',
      IntegrationsErrorCode.Generic,
      404,
      `No subscription ${id} in your company`,
    );
  }
}

export class DeliveryNotFoundError extends IntegrationsError {
  constructor(id: string) {
    super(
      'DeliveryNotFoundError',
      IntegrationsErrorCode.Generic,
      404,
      `No delivery ${id} in this subscription`,
    );
  }
}

export class DuplicateSubscriptionError extends IntegrationsError {
  constructor(source: string, url: string) {
    super(
      'DuplicateSubscriptionError',
      IntegrationsErrorCode.Validation,
      422,
      `${source} already has a subscription to ${url}: change it by deleting that one first`,
    );
  }
}

export class SubscriptionLimitError extends IntegrationsError {
  constructor(limit: number) {
    super(
      'SubscriptionLimitError',
      IntegrationsErrorCode.Validation,
      422,
      `Your company already has ${limit} subscriptions, the most it may have: delete one before creating another`,
    );
  }
}

export class SubscriptionDisabledError extends IntegrationsError {
  constructor(id: string) {
    super(
      'SubscriptionDisabledError',
      IntegrationsErrorCode.Validation,
      422,
      `Subscription ${id} is disabled: its deliveries are not attempted. Create a new subscription once the receiver works`,
    );
  }
}

export class DeliveryInProgressError extends IntegrationsError {
  constructor(id: string) {
    super(
      'DeliveryInProgressError',
      IntegrationsErrorCode.Generic,
      409,
      `Delivery ${id} is being attempted right now: replay it once the attempt is over`,
    );
  }
}
