// Opt-in caching of model bytes in the browser's Cache API (load(url,
// {cache: true})), so a page does not download a model again on every
// visit. Entries are keyed by URL. When the cached response has an ETag,
// each load asks the server whether it changed (If-None-Match): 304 uses
// the cached bytes, 200 replaces them, and a failed request (offline) falls
// back to them. Without an ETag the cached bytes are used as they are.
//
// Errors: where the Cache API is missing (Node, insecure pages) cache: true
// fetches normally; cache failures (quota) never fail a load.

const CACHE_NAME = 'pt2web-models';

/** True where the Cache API exists (browsers, on secure origins). */
export function modelCacheAvailable() {
  return typeof caches === 'object' && caches !== null;
}

async function openCache() {
  return modelCacheAvailable() ? caches.open(CACHE_NAME) : null;
}

/**
 * A response for url through the cache: the cached one when it is still
 * current, else the network's (stored for next time when it succeeds).
 * Resolves to {response, fromCache}; a network error with nothing cached
 * rejects with it.
 */
export async function fetchThroughCache(url) {
  const cache = await openCache();
  const hit = cache && (await cache.match(url.href));
  const etag = hit?.headers.get('etag');
  if (hit && !etag) return { response: hit, fromCache: true };
  let response;
  try {
    response = await fetch(url, etag ? { headers: { 'If-None-Match': etag } } : undefined);
  } catch (cause) {
    if (hit) return { response: hit, fromCache: true };
    throw cause;
  }
  if (hit && response.status === 304) return { response: hit, fromCache: true };
  if (cache && response.ok) {
    try {
      await cache.put(url.href, response.clone());
    } catch {
      // Quota exceeded or the like: the load goes on without caching.
    }
  }
  return { response, fromCache: false };
}

/** The cached models: [{url, bytes, etag}] (bytes: null when unknown). */
export async function cachedModels() {
  const cache = await openCache();
  if (!cache) return [];
  const requests = await cache.keys();
  return Promise.all(requests.map(async (request) => {
    const response = await cache.match(request);
    const length = Number(response?.headers.get('content-length'));
    return { url: request.url, bytes: Number.isFinite(length) && length > 0 ? length : null, etag: response?.headers.get('etag') ?? null };
  }));
}

/**
 * Removes one model (by URL, resolved against the page) or, without an
 * argument, every cached model; resolves to how many entries were removed.
 */
export async function clearModelCache(url) {
  const cache = await openCache();
  if (!cache) return 0;
  if (url === undefined) {
    const requests = await cache.keys();
    await Promise.all(requests.map((request) => cache.delete(request)));
    return requests.length;
  }
  return (await cache.delete(new URL(String(url), globalThis.location?.href).href)) ? 1 : 0;
}
