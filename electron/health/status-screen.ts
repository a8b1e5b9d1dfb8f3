import { formatDuration } from './duration.ts';
import type { HealthReport } from './health-report.ts';
import type { TroubleClass } from './trouble.ts';
import { count, euros } from './wording.ts';

/** The report as a technician reads it over SSH: a headline, one aligned line per part, then each problem with what to do next. */

const headlines: Readonly<Record<TroubleClass | 'healthy', string>> = {
  healthy: 'HEALTHY',
  'debit-attention': 'TROUBLE: debits need attention',
  'sender-paused': 'TROUBLE: the sender is paused',
  configuration: 'TROUBLE: kioskctl is not configured for this kiosk',
  offline: 'TROUBLE: the service is unreachable',
  'stale-mirror': 'TROUBLE: the catalogue mirror is stale',
  printer: 'TROUBLE: printer problem',
  clock: "TROUBLE: the kiosk's clock is off",
};

export function statusScreen(report: HealthReport, exitCode: number): string {
  const lines = [`${headlines[report.verdict]}   (exit ${exitCode}, ${report.checkedAt})`, ''];
  const row = (label: string, ...parts: (string | null | false)[]) =>
    lines.push(`  ${label.padEnd(13)} ${parts.filter(Boolean).join('   ')}`);

  const { service, credentials, profile, sender, mirror, printers } = report;
  const clock = service.clock;
  row(
    'service',
    service.baseUrl ?? '(none)',
    service.connectivity,
    clock !== null &&
      `clock ${clock.offsetMs >= 0 ? '+' : '-'}${formatDuration(Math.abs(clock.offsetMs))} (±${formatDuration(clock.uncertaintyMs)})`,
  );
  row('credentials', credentials.source ?? '(none)', credentials.state);
  row('profile', `${profile.name} (${profile.source}${profile.path ? `: ${profile.path}` : ''})`);
  row(
    'sender',
    sender.state,
    sender.leaseHolder && `kiosk ${sender.leaseHolder.owner}`,
    `${count(sender.pending.count, 'debit')} waiting, ${euros(sender.pending.amount)}`,
    sender.pending.oldestAgeMs !== null && `oldest ${formatDuration(sender.pending.oldestAgeMs)}`,
    sender.held.length > 0 && `${sender.held.length} held`,
  );
  const attention = report.attention;
  row(
    'attention',
    attention.count === 0
      ? 'none'
      : `${count(attention.count, 'debit')}, ${euros(attention.amount)} not resolved: ${attention.debits
          .slice(0, 5)
          .map(
            (debit) =>
              `#${debit.id} ${debit.state} ${euros(debit.amount)}${debit.code ? ` ${debit.code}` : ''}`,
          )
          .join(', ')}${attention.count > 5 ? ', ...' : ''}`,
  );
  row(
    'mirror',
    mirror.ready ? `as of ${mirror.asOf ?? '?'}` : 'never synchronised',
    mirror.ageMs !== null && `age ${formatDuration(mirror.ageMs)} (${mirror.measuredOn} clock)`,
    `stale after ${formatDuration(mirror.staleAfterMs)}`,
    `${mirror.products} products`,
  );
  row(
    'printer',
    printers.printing === 'not-configured' ? 'not configured' : (printers.printer ?? '(none)'),
    printers.backend,
    printers.printers.find((printer) => printer.name === printers.printer)?.state ?? null,
    printers.error && printers.error.message,
  );
  const others = printers.printers.filter((printer) => printer.name !== printers.printer);
  if (others.length > 0) {
    row(
      'other queues',
      others
        .map(
          (printer) => `${printer.name} ${printer.problem ? printer.problem.code : printer.state}`,
        )
        .join(', '),
    );
  }
  if (report.lastErrors.length === 0) row('last errors', 'none');
  for (const [index, error] of report.lastErrors.entries()) {
    row(
      index === 0 ? 'last errors' : '',
      `${error.at ?? 'now'} ${error.source} ${error.code}${error.message ? `: ${error.message}` : ''}`,
    );
  }

  if (report.problems.length > 0) {
    lines.push('', 'problems, most important first:');
    for (const [index, problem] of report.problems.entries()) {
      lines.push(`  ${index + 1}. [${problem.class}] ${problem.code}: ${problem.message}`);
      lines.push(`     next: ${problem.next}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
