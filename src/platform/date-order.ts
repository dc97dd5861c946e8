import { AppError, type ProblemIssue } from './errors.ts';

/**
 * Cross-field date rules (issue 26): a date that must not come before another. Compared by calendar
 * day (UTC), so a delivery on the day of the order is fine whatever the hours. Both must be set
 * for the rule to apply.
 */
export type DateValue = Date | string | null | undefined;

/** The order dates: delivered (expected or actual) not before ordered. */
export const ORDER_DATE_RULES = [
  ['orderDate', 'expectedDeliveryDate'],
  ['orderDate', 'actualDeliveryDate'],
] as const;

const day = (value: DateValue) => {
  if (value == null) return undefined;
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
};

/** The first rule the values break, as [earlier field, later field]; undefined when all hold. */
export function brokenDateRule<F extends string>(
  values: Partial<Record<F, DateValue>>,
  rules: readonly (readonly [F, F])[],
): readonly [F, F] | undefined {
  return rules.find(([earlier, later]) => {
    const a = day(values[earlier]);
    const b = day(values[later]);
    return a !== undefined && b !== undefined && b < a;
  });
}

/** The issue of a broken rule, at `${at}/${later}`. */
export const dateOrderIssue = (earlier: string, later: string, at = ''): ProblemIssue => ({
  pointer: `${at}/${later}`,
  message: `must not be before ${earlier}`,
  in: 'body',
  keyword: 'dateOrder',
  params: { after: earlier },
});

/** 400 `dates_out_of_order` when the values break a rule, with the later field's pointer. */
export function assertDatesInOrder<F extends string>(
  values: Partial<Record<F, DateValue>>,
  rules: readonly (readonly [F, F])[],
  at = '',
) {
  const broken = brokenDateRule(values, rules);
  if (!broken) return;
  const [earlier, later] = broken;
  throw new AppError('dates_out_of_order', `${later} is before ${earlier}`, {
    issues: [dateOrderIssue(earlier, later, at)],
  });
}
