import { Injectable } from '@nestjs/common';
import { FeatureRepository, preparedStatementName, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Label, LABEL_MODELS, type LabelModel } from './label.entity';

/** A label as LabelDto shows it. */
export type LabelRow = Pick<Label, 'id' | 'version' | 'name' | 'color' | 'model'>;

// The planner's look-up reads the user labels on every report: a fixed text, prepared once per connection.
const LABELS_OF_MODEL = `SELECT label.id, label.version, label.name, label.color, label.model
  FROM labels label
 WHERE label.company_id = $1 AND label.model = $2 AND label.deleted_at IS NULL
 ORDER BY label.id`;
const LABELS_OF_MODEL_NAME = preparedStatementName(LABELS_OF_MODEL);

/** Labels of the request's company. */
@Injectable()
export class LabelsRepository extends FeatureRepository<Label> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Label,
      alias: 'label',
      filters: {
        name: { kind: 'text', column: 'name' },
        model: { kind: 'enum', column: 'model', values: LABEL_MODELS },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Label ${id}`),
    });
  }

  /** Every label of one model, by id. */
  ofModel(model: LabelModel): Promise<LabelRow[]> {
    return this.scope.sql.select<LabelRow>(
      LABELS_OF_MODEL,
      [this.scope.companyId(), model],
      LABELS_OF_MODEL_NAME,
    );
  }
}
