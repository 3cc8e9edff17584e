import { BusinessRuleError } from '../errors/main-api.errors';
import { RequestValidationError } from '@platform/runtime';
import {
  applyProjectFields,
  checkEstimationAndIncome,
  checkProjectDates,
  checkUniqueLines,
  containsPattern,
  estimateMode,
} from './project-rules';
// Type only: loading the entity graph outside Nest trips over its circular relation imports.
import type { Project } from './project.entity';

function project(fields: Partial<Project>): Project {
  return {
    start: null,
    end: null,
    incomeType: null,
    feeId: null,
    contractId: null,
    estimated: null,
    userPositionsHeaderId: null,
    estimatedByPosition: false,
    estimationByCategories: false,
    ...fields,
  } as Project;
}

describe('project rules', () => {
  describe('estimation and income', () => {
    it('refuses two estimation modes at once', () => {
      expect(() =>
        checkEstimationAndIncome(project({ estimatedByPosition: true, estimationByCategories: true })),
      ).toThrow(BusinessRuleError);
    });

    it.each([
      ['fee', { incomeType: 'fee' }, 'income_type fee needs fee_id'],
      ['contract', { incomeType: 'contract' }, 'income_type contract needs contract_id'],
      [
        'one_time',
        { incomeType: 'one_time' },
        'income_type one_time needs estimated (the fixed monetary value)',
      ],
      [
        'hourly_rate',
        { incomeType: 'hourly_rate' },
        'income_type hourly_rate needs a ratecard (ratecard_id)',
      ],
    ] as const)('refuses income_type %s without what its income comes from', (_type, fields, message) => {
      expect(() => checkEstimationAndIncome(project(fields))).toThrow(message);
    });

    it.each([
      { incomeType: 'fee', feeId: 1 },
      { incomeType: 'contract', contractId: 1 },
      { incomeType: 'one_time', estimated: '0' },
      { incomeType: 'hourly_rate', userPositionsHeaderId: 1 },
      { incomeType: null },
    ] as const)('accepts %o', (fields) => {
      expect(() => checkEstimationAndIncome(project(fields))).not.toThrow();
    });
  });

  it('refuses an end before the start and a date not on the calendar', () => {
    expect(() => checkProjectDates(project({ start: '2024-05-02', end: '2024-05-01' }))).toThrow(
      RequestValidationError,
    );
    expect(() => checkProjectDates(project({ start: '2024-02-30' }))).toThrow(RequestValidationError);
    expect(() => checkProjectDates(project({ start: '2024-05-01', end: '2024-05-01' }))).not.toThrow();
  });

  it('follows the active estimation mode', () => {
    expect(estimateMode(project({ estimatedByPosition: true }))).toBe('positions');
    expect(estimateMode(project({ estimationByCategories: true }))).toBe('categories');
    expect(estimateMode(project({}))).toBeNull();
  });

  it('refuses an estimate list naming a line twice', () => {
    expect(() => checkUniqueLines([{ id: 1 }, { id: 1 }], 'categories')).toThrow(RequestValidationError);
    expect(() => checkUniqueLines([{ id: 1 }, { id: 2 }], 'categories')).not.toThrow();
  });

  it('lets ratecard_id win over user_positions_header_id', () => {
    const target = project({});
    applyProjectFields(target, { ratecard_id: 7, user_positions_header_id: 8 });
    expect(target.userPositionsHeaderId).toBe(7);
  });

  it('matches wildcards in a searched name literally', () => {
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
