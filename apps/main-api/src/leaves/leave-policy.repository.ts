import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope } from '@platform/database';

const APPROVAL_REQUIRED = `SELECT leave_approval_required AS "approvalRequired" FROM companies WHERE id = $1`;
const APPROVAL_REQUIRED_NAME = preparedStatementName(APPROVAL_REQUIRED);

const SET_APPROVAL_REQUIRED = `UPDATE companies SET leave_approval_required = $2, updated_at = now()
 WHERE id = $1
 RETURNING leave_approval_required AS "approvalRequired"`;
const SET_APPROVAL_REQUIRED_NAME = preparedStatementName(SET_APPROVAL_REQUIRED);

/** The request's company's leave policy: a column of the company (row-level security: its own row). */
@Injectable()
export class LeavePolicyRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  async approvalRequired(): Promise<boolean> {
    const [row] = await this.scope.sql.select<{ approvalRequired: boolean }>(
      APPROVAL_REQUIRED,
      [this.scope.companyId()],
      APPROVAL_REQUIRED_NAME,
    );
    return row?.approvalRequired ?? false;
  }

  async setApprovalRequired(required: boolean): Promise<boolean> {
    const [row] = await this.scope.sql.execute<{ approvalRequired: boolean }>(
      SET_APPROVAL_REQUIRED,
      [this.scope.companyId(), required],
      SET_APPROVAL_REQUIRED_NAME,
    );
    return row?.approvalRequired ?? false;
  }
}
