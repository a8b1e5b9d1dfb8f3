import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { App } from '../../renderer/App.tsx';

// React only flushes updates synchronously inside act() when it knows it runs under a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  document.body.replaceChildren();
});

test('names the product and says the kiosk UI is not built yet', async () => {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);

  await act(async () => root.render(<App />));

  const heading = container.querySelector('h1');
  expect(heading?.textContent).toBe('commerce-kiosk');
  expect(container.textContent).toContain('Kiosk UI: not built yet');

  await act(async () => root.unmount());
  expect(container.childElementCount).toBe(0);
});
