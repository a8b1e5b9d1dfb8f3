import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';

/** Work under way, in place: a turning wheel beside what the kiosk is doing, read out politely. */
export function Busy({ children }: { readonly children: ReactNode }) {
  return (
    <p role="status" className="busy">
      <LoaderCircle className="busy-wheel" aria-hidden="true" size={22} />
      {children}
    </p>
  );
}
