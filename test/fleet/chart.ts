import type { FleetReport } from './report.ts';

/**
 * The run's requests per second against the service's limit, as a self-contained SVG: the
 * requests the limiter let through, its 429s stacked on top, the limit as a dashed line and the
 * outage shaded. Written by `npm run fleet` and shown in docs/operating.md.
 */

const W = 900;
const H = 360;
const M = { left: 56, right: 16, top: 40, bottom: 44 };

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A round step giving about `count` ticks over `span`. */
function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power * 10;
  return Math.max(1, step);
}

export function fleetChart(report: FleetReport): string {
  const series = report.series.filter((entry) => entry.t >= 0);
  const lastT = Math.max(report.minutes * 60, ...series.map((entry) => entry.t + 1));
  const peak = Math.max(report.limitPerSecond, ...series.map((e) => e.admitted + e.limited));
  const yMax = Math.ceil((peak * 1.15) / tickStep(peak, 5)) * tickStep(peak, 5);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (t: number) => M.left + (t / lastT) * plotW;
  const y = (v: number) => M.top + plotH - (v / yMax) * plotH;
  const barW = Math.max(0.5, plotW / lastT - 0.3);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">${escapeXml(
      `Fleet of ${report.kiosks} kiosks, ${report.minutes} min: requests per second against the service's limit`,
    )}</text>`,
    // The outage.
    `<rect x="${x(report.outage.fromS).toFixed(1)}" y="${M.top}" width="${(x(report.outage.toS) - x(report.outage.fromS)).toFixed(1)}" height="${plotH}" fill="#9e9e9e" fill-opacity="0.25"/>`,
    `<text x="${(x(report.outage.fromS) + 4).toFixed(1)}" y="${M.top + 14}" fill="#555">network outage</text>`,
  );
  const yStep = tickStep(yMax, 5);
  for (let v = 0; v <= yMax; v += yStep) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e0e0e0"/>`,
      `<text x="${M.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`,
    );
  }
  const xStep = tickStep(lastT, 10);
  for (let t = 0; t <= lastT; t += xStep)
    out.push(
      `<text x="${x(t).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle">${t}</text>`,
    );
  out.push(
    `<text x="${M.left + plotW / 2}" y="${H - 8}" text-anchor="middle">seconds from the start of the run</text>`,
    `<text transform="translate(14 ${M.top + plotH / 2}) rotate(-90)" text-anchor="middle">requests / s</text>`,
  );
  for (const entry of series) {
    const left = x(entry.t).toFixed(1);
    out.push(
      `<rect x="${left}" y="${y(entry.admitted).toFixed(1)}" width="${barW.toFixed(2)}" height="${(y(0) - y(entry.admitted)).toFixed(1)}" fill="#1e88e5"/>`,
    );
    if (entry.limited > 0)
      out.push(
        `<rect x="${left}" y="${y(entry.admitted + entry.limited).toFixed(1)}" width="${barW.toFixed(2)}" height="${(y(entry.admitted) - y(entry.admitted + entry.limited)).toFixed(1)}" fill="#e53935"/>`,
      );
  }
  const limitY = y(report.limitPerSecond).toFixed(1);
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${limitY}" y2="${limitY}" stroke="#e53935" stroke-width="1.5" stroke-dasharray="6 4"/>`,
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${y(0)}" stroke="#333"/>`,
    `<line x1="${M.left}" x2="${W - M.right}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`,
  );
  // Legend.
  const lx = W - M.right - 330;
  out.push(
    `<rect x="${lx}" y="${M.top + 4}" width="10" height="10" fill="#1e88e5"/><text x="${lx + 14}" y="${M.top + 13}">admitted</text>`,
    `<rect x="${lx + 80}" y="${M.top + 4}" width="10" height="10" fill="#e53935"/><text x="${lx + 94}" y="${M.top + 13}">429</text>`,
    `<line x1="${lx + 130}" x2="${lx + 156}" y1="${M.top + 9}" y2="${M.top + 9}" stroke="#e53935" stroke-width="1.5" stroke-dasharray="6 4"/><text x="${lx + 160}" y="${M.top + 13}">limit ${report.limitPerSecond}/s</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
