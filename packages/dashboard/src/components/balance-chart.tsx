import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { BalancePoint } from "../api/session-documents.ts";
import { groupDigits } from "../format/amount.ts";

const height = 200;

/** "2026-11-26" → seconds since the epoch at that day's UTC midnight (a date, not money). */
function dayToSeconds(day: string): number {
  const [year = 0, month = 1, date = 1] = day.split("-").map((part) => Number.parseInt(part, 10));
  return Date.UTC(year, month - 1, date) / 1000;
}

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 2 });

/** A y-axis tick (a pixel scale's round number, not money): "1.2M", "950K", "12.5". */
function tickLabel(tick: number): string {
  return compact.format(tick);
}

/** The y-axis width that holds its longest tick label (uPlot's `size` hook), in CSS pixels. */
function axisWidth(_plot: uPlot, values: string[] | null): number {
  const longest = Math.max(0, ...(values ?? []).map((value) => value.length));
  // About 8 px a character at uPlot's 12 px axis font, plus the tick and the gap.
  return Math.max(48, Math.ceil(longest * 8 + 24));
}

/**
 * One wallet's closing balance per day, drawn by uPlot on a canvas. The only place a balance
 * becomes a float is the line's y position (pixels, not money): the caption and the table under
 * the chart show the API's exact strings.
 */
export function BalanceChart({
  wallet,
  currency,
  points,
}: {
  wallet: string;
  currency: string;
  points: readonly BalancePoint[];
}) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || points.length === 0) return;
    const xs = points.map((point) => dayToSeconds(point.day));
    const ys = points.map((point) => Number(point.balance));
    // The page's accent: blue for live data, test mode's own for test data (docs/dashboard.md).
    const test = element.closest(".test-mode") !== null;
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 240),
        height,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        scales: { x: { time: true } },
        cursor: { y: false },
        // The caption and the table below say the values in words and exact figures.
        legend: { show: false },
        series: [
          {},
          {
            label: `${wallet} (${currency})`,
            stroke: test ? "#9a3412" : "#1d5fbf",
            fill: test ? "rgba(154, 52, 18, 0.12)" : "rgba(29, 95, 191, 0.12)",
            width: 2,
          },
        ],
        axes: [
          { stroke: "#4a5360" },
          // Compact tick labels ("1.2M", "950k") and room for the widest: never clipped at any magnitude.
          { stroke: "#4a5360", values: (_plot, ticks) => ticks.map(tickLabel), size: axisWidth },
        ],
      },
      [xs, ys],
      element,
    );
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(element.clientWidth, 240), height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, wallet, currency]);

  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last
      ? `${wallet}: ${groupDigits(first.balance)} ${currency} on ${first.day}, ${groupDigits(last.balance)} ${currency} on ${last.day}`
      : `${wallet}: no balance history`;
  return (
    <figure class="chart">
      <div class="chart-canvas" role="img" aria-label={`Balance over time, ${summary}`} ref={holder} />
      <figcaption>{summary}</figcaption>
      <details>
        <summary>Daily balances of {wallet}</summary>
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Closing balance</th>
              </tr>
            </thead>
            <tbody>
              {[...points].reverse().map((point) => (
                <tr key={point.day}>
                  <td>{point.day}</td>
                  <td class="num">
                    {groupDigits(point.balance)} {currency}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
