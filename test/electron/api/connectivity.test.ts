import { describe, expect, test } from 'vitest';
import {
  ConnectivityMonitor,
  outcomeOfError,
  type ConnectivityChange,
} from '../../../electron/api/connectivity.ts';
import {
  InvalidRequest,
  NetworkError,
  NotFound,
  ServiceUnavailable,
} from '../../../electron/api/errors.ts';
import { silentLogger } from '../../../electron/logging/redacting-logger.ts';

describe('connectivity monitor', () => {
  test('moves online → degraded → offline → online and reports each change once', async () => {
    let probe: () => Promise<unknown> = async () => ({ status: 'ok' });
    const monitor = new ConnectivityMonitor({
      probe: () => probe(),
      now: () => 0,
      offlineAfter: 2,
      logger: silentLogger,
    });
    const changes: ConnectivityChange[] = [];
    monitor.on('change', (change) => changes.push(change));
    // A throwing listener does not stop the others.
    monitor.on('change', () => {
      throw new Error('listener bug');
    });

    expect(monitor.state).toBe('online');
    monitor.record('answered', 'ping');
    monitor.record('unreachable', 'listShops', 'NETWORK_ERROR');
    expect(monitor.state).toBe('degraded');
    monitor.record('unreachable', 'listShops', 'TIMEOUT');
    expect(monitor.state).toBe('offline');
    monitor.record('unreachable', 'listShops', 'TIMEOUT');

    probe = async () => {
      throw new ServiceUnavailable({
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        explanation: 'maintenance',
      });
    };
    expect(await monitor.check()).toBe('degraded');
    probe = async () => ({ status: 'ok' });
    expect(await monitor.check()).toBe('online');

    expect(changes.map(({ from, to, source, detail }) => [from, to, source, detail])).toEqual([
      ['online', 'degraded', 'listShops', 'NETWORK_ERROR'],
      ['degraded', 'offline', 'listShops', 'TIMEOUT'],
      ['offline', 'degraded', 'health', 'SERVICE_UNAVAILABLE'],
      ['degraded', 'online', 'health', 'OK'],
    ]);
  });

  test('concurrent checks share one probe', async () => {
    let probes = 0;
    const monitor = new ConnectivityMonitor({
      probe: async () => {
        probes += 1;
      },
      now: () => 0,
      logger: silentLogger,
    });
    await Promise.all([monitor.check(), monitor.check(), monitor.check()]);
    expect(probes).toBe(1);
    await monitor.check();
    expect(probes).toBe(2);
  });

  test('outcomes of errors: business answers mean the service is there, local refusals say nothing', () => {
    expect(
      outcomeOfError(new NotFound({ code: 'RESOURCE_NOT_FOUND', status: 404, explanation: '' })),
    ).toBe('answered');
    expect(
      outcomeOfError(
        new NetworkError({ code: 'NETWORK_ERROR', explanation: '', requestSent: true }),
      ),
    ).toBe('unreachable');
    expect(
      outcomeOfError(new InvalidRequest({ code: 'INVALID_REQUEST', explanation: '', local: true })),
    ).toBeUndefined();
    expect(outcomeOfError(new Error('x'))).toBeUndefined();
  });
});
