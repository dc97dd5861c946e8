import { DonutChart, LineChart } from '@mantine/charts';
import { money } from '../../ui/format.ts';

/**
 * The configurator's charts (recharts through @mantine/charts, about 120 KB gzipped): a chunk of
 * their own, loaded by EstimatePanel.tsx when an estimate is first shown, so the form and the price
 * do not wait for them.
 */

export type CostShareChartProps = {
  data: { name: string; value: number; color: string }[];
  currency: string;
  total: number;
};

/** The cost shares of the seller's staff (costs:read) as a donut, the total in its middle. */
export function CostShareChart({ data, currency, total }: CostShareChartProps) {
  return (
    <DonutChart
      size={150}
      thickness={26}
      data={data}
      valueFormatter={(v) => money(v, currency)}
      chartLabel={money(total, currency, 0)}
    />
  );
}

export type QuantityCurveChartProps = {
  data: { quantity: string; unitPrice: number }[];
  currency: string;
  seriesLabel: string;
  /** The next price break, drawn as a reference line. */
  priceBreak?: { unitPrice: number; label: string };
};

/** The unit price over the quantity. */
export function QuantityCurveChart({ data, currency, seriesLabel, priceBreak }: QuantityCurveChartProps) {
  return (
    <LineChart
      h={170}
      data={data}
      dataKey="quantity"
      series={[{ name: 'unitPrice', label: seriesLabel, color: 'indigo.7' }]}
      valueFormatter={(v) => money(v, currency, 4)}
      yAxisProps={{ domain: ['auto', 'auto'], width: 70 }}
      referenceLines={
        priceBreak ? [{ y: priceBreak.unitPrice, label: priceBreak.label, color: 'red.7' }] : []
      }
    />
  );
}
