/**
 * The V8 flags the kiosk's main process is launched with: `build/start.sh` passes them (to Node,
 * or to Electron as `--js-flags`), and so does the packaged app's launcher
 * (`linux.executableArgs` in `build/electron-builder.yml`); kioskctl, which can run a full sync
 * too, has them on its `#!` line. `test/build/v8-flags.test.ts` keeps them all in step. They must
 * be given at launch: V8 sizes its heap once, when it starts.
 *
 * V8 sizes its young generation (two semi-spaces) from the machine's memory, up to 64 MB a
 * semi-space on a 24 GiB machine, and a full catalogue sync allocates fast enough to grow it to
 * whatever ceiling it is given. Held at 16 MB a semi-space, the kiosk's memory no longer depends on
 * the machine it runs on: a 100,000-product sync peaks near 110 MB above its start instead of
 * 200 MB there, for a few percent of sync time (`npm run bench -- catalog`).
 */
export const kioskV8Flags: readonly string[] = ['--max-semi-space-size=16'];
