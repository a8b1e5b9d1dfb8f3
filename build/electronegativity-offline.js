// Preloaded (node --import) by build/electronegativity.sh. Electronegativity 1.10 fetches its
// translations from a remote bucket at every start and the Electron release list in
// AvailableSecurityFixesGlobalCheck, both through `got`; these machines reach no such host, and
// on Node 24 got's retry timer then throws after the request has already failed ("The `onCancel`
// handler was attached after the promise settled"), crashing the scan. Handing electronegativity
// a `got` that fails at once keeps the run offline: it falls back to its bundled en-US strings.
import Module, { createRequire } from 'node:module';

const fromTool = createRequire(import.meta.resolve('@doyensec/electronegativity/dist/index.js'));
const gotPath = fromTool.resolve('got');
const offline = () => Promise.reject(new Error('electronegativity runs offline here'));
offline.head = offline;
const stub = new Module(gotPath);
stub.filename = gotPath;
stub.loaded = true;
stub.exports = offline;
fromTool.cache[gotPath] = stub;
