/**
 * The loopback browser host's wire protocol, shared by the host (electron/host/) and the
 * renderer's loopback client (renderer/ipc/):
 * - `POST /ipc/<message name>`, JSON request body, JSON `IpcResult` reply (always HTTP 200 once
 *   the request got through the host's checks; 4xx only for a request refused by the transport);
 * - `POST /ipc/events`: a `text/event-stream` response, one `event: <channel>` / `data: <json>`
 *   record per event, kept open;
 * - every `/ipc/` request carries the per-run token in the `X-Kiosk-Token` header and the page's
 *   own `Origin` (fetch always sends it on POST). The token reaches the page in the URL fragment
 *   (`#token=...`), which browsers never send to a server nor put in a Referer.
 */
export const LOOPBACK_IPC_PATH = '/ipc/';
export const LOOPBACK_EVENTS_PATH = '/ipc/events';
export const LOOPBACK_TOKEN_HEADER = 'x-kiosk-token';
export const LOOPBACK_TOKEN_FRAGMENT = 'token';
/** Larger requests are refused before parsing; the largest real one (credentials) is ~1.5 KB. */
export const LOOPBACK_MAX_REQUEST_BYTES = 64 * 1024;
