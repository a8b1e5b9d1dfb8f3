import { alternateDialect } from './alternate.ts';
import { type Dialect, type DialectName, defaultDialect } from './dialect.ts';
import { minimalDialect } from './minimal.ts';

export { type Dialect, type DialectName, dialectNames, defaultDialect } from './dialect.ts';

const dialects: Readonly<Record<DialectName, Dialect>> = {
  default: defaultDialect,
  alternate: alternateDialect,
  minimal: minimalDialect,
};

export function dialectNamed(name: DialectName): Dialect {
  return dialects[name];
}
