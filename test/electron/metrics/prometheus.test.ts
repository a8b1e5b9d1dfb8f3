import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { shopIds } from '../../../sandbox/data/referentials.ts';
import { freePort } from '../../support/free-port.ts';
import { type PrivatePrometheus, startPrometheus } from '../../support/prometheus.ts';
import { type KioskFixture, replyTo, startKioskFixture } from '../kiosk/support.ts';

/**
 * The acceptance of the fleet metrics: Debian's Prometheus scrapes the kiosk's loopback endpoint,
 * the kiosk debits a card and synchronises its catalogue, and the figures come back through
 * PromQL, labelled with the kiosk and its store, never with a card or a customer.
 */
describe('metrics scraped by Prometheus', { timeout: 120_000 }, () => {
  let fixture: KioskFixture;
  let prometheus: PrivatePrometheus;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    fixture = await startKioskFixture({
      services: {
        shopId: shopIds.paris,
        environment: { KIOSK_METRICS_PORT: String(metricsPort), KIOSK_ID: 'kiosk-test-1' },
      },
    });
    prometheus = await startPrometheus([`127.0.0.1:${metricsPort}`]);
  }, 60_000);

  afterAll(async () => {
    await prometheus?.stop();
    await fixture?.close();
  });

  it('serves the endpoint on loopback only', () => {
    expect(fixture.services.parts.telemetry.prometheusUrl).toBe(
      `http://127.0.0.1:${metricsPort}/metrics`,
    );
  });

  it('a debit and a sync, read back with PromQL', async () => {
    fixture.services.parts.sender.start();
    const requestId = crypto.randomUUID();
    const debit = await replyTo(fixture, 'debitGiftCard', {
      requestId,
      giftCardId: demoGiftCards.active,
      amount: 3.5,
      reference: 'V-2026-77',
      policy: 'prefer_online',
      waitMs: 10_000,
    });
    expect(debit.debit.state).toBe('applied');
    const synced = await fixture.services.parts.catalogSync.sync({ full: true });
    expect(synced.kind).toBe('full');

    const kiosk = `{kiosk_id="kiosk-test-1",kiosk_store_id="${shopIds.paris}"}`;
    const applied = await prometheus.waitFor(
      `kiosk_outbox_attempts_total{outcome="applied",kiosk_id="kiosk-test-1"}`,
      (value) => value >= 1,
    );
    expect(applied.metric).toMatchObject({ job: 'kiosk', kiosk_store_id: shopIds.paris });
    await prometheus.waitFor(
      `sum(kiosk_outbox_debits_accepted_total${kiosk})`,
      (value) => value === 1,
    );
    await prometheus.waitFor(
      `kiosk_catalog_syncs_total{kind="full",result="ok",kiosk_id="kiosk-test-1"}`,
      (value) => value >= 1,
    );
    await prometheus.waitFor(`kiosk_catalog_mirror_age_seconds${kiosk}`, (value) => value >= 0);
    await prometheus.waitFor(`kiosk_catalog_sync_failing${kiosk}`, (value) => value === 0);
    await prometheus.waitFor(
      `sum(kiosk_catalog_sync_duration_seconds_count{result="ok",kiosk_id="kiosk-test-1"})`,
      (value) => value >= 1,
    );
    await prometheus.waitFor(
      `sum by (operation) (kiosk_api_requests_total{operation="debitGiftCard",status_class="2xx"})`,
      (value) => value >= 1,
    );
    await prometheus.waitFor(`kiosk_outbox_sender_paused${kiosk}`, (value) => value === 0);
    await prometheus.waitFor(`kiosk_outbox_debits{state="pending"}`, (value) => value === 0);
    await prometheus.waitFor(`kiosk_clock_offset_seconds${kiosk}`, (value) =>
      Number.isFinite(value),
    );

    // Cardinality and privacy: no label of any series names the card, the debit or the sale.
    const series = await prometheus.query('{__name__=~"kiosk_.+"}');
    expect(series.length).toBeGreaterThan(10);
    const labels = JSON.stringify(series.map((sample) => sample.metric));
    expect(labels).not.toContain(demoGiftCards.active);
    expect(labels).not.toContain('V-2026-77');
    expect(labels).not.toContain(requestId);
  });
});
