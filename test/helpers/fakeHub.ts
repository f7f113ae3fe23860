/**
 * A fake Hugging Face hub on 127.0.0.1 (port 0) for the catalogue-download tests: it serves
 * `GET /{owner}/{name}/resolve/{revision}/{path}` from files the test gives it, honours
 * `Range: bytes=N-` with 206 + Content-Range (unless `ignoreRange`), and can redirect every file to a
 * second "CDN" origin as the real hub does for LFS files (`cdn: true`). `script(req)` can make one
 * request fail: a status, a body cut after some bytes (the connection is destroyed, as a dropped
 * download), different bytes (a corrupt file), or headers and then silence (an idle connection).
 * Every request is logged (path, range header, whether it came through a proxy).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface HubRequest {
  n: number;
  origin: 'hub' | 'cdn';
  path: string;
  range: string | undefined;
}

export type HubScript = { status: number } | { cutAfter: number } | { body: Buffer } | { stall: true } | undefined;

export interface FakeHub {
  /** Base URL for `hub` / `HF_ENDPOINT`. */
  url: string;
  requests: HubRequest[];
  close(): Promise<void>;
}

export interface FakeHubOptions {
  /** `owner/name@revision/path` → bytes. */
  files: Record<string, Uint8Array>;
  cdn?: boolean;
  ignoreRange?: boolean;
  script?: (req: HubRequest) => HubScript;
}

function listen(s: Server): Promise<string> {
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
}

function closer(s: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((r) => {
      for (const so of sockets) so.destroy();
      s.closeAllConnections?.();
      s.close(() => r());
    });
}

export async function startFakeHub(o: FakeHubOptions): Promise<FakeHub> {
  const requests: HubRequest[] = [];
  const bySha = new Map<string, Uint8Array>();
  for (const b of Object.values(o.files)) bySha.set(createHash('sha256').update(b).digest('hex'), b);
  const sockets = new Set<Socket>();
  const track = (s: Server) =>
    s.on('connection', (so: Socket) => {
      sockets.add(so);
      so.on('close', () => sockets.delete(so));
    });

  const serve = (req: IncomingMessage, res: ServerResponse, origin: 'hub' | 'cdn', bytes: Uint8Array | undefined) => {
    const r: HubRequest = { n: requests.length + 1, origin, path: (req.url ?? '').split('?')[0], range: req.headers.range };
    requests.push(r);
    const sc = o.script?.(r);
    if (sc && 'status' in sc) return void res.writeHead(sc.status).end();
    if (!bytes) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
    if (origin === 'hub' && o.cdn) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      return void res.writeHead(302, { location: `${cdnUrl}/blobs/${sha}` }).end();
    }
    let body = Buffer.from(sc && 'body' in sc ? sc.body : bytes);
    const m = /^bytes=(\d+)-$/.exec(r.range ?? '');
    let status = 200;
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
    if (m && !o.ignoreRange) {
      const from = Number(m[1]);
      if (from >= body.length) return void res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`;
      body = body.subarray(from);
      status = 206;
    }
    headers['content-length'] = String(body.length);
    res.writeHead(status, headers);
    if (sc && 'stall' in sc) return; // headers, then nothing
    if (sc && 'cutAfter' in sc) {
      res.write(body.subarray(0, sc.cutAfter), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body);
  };

  const hub = createServer((req, res) => {
    const m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec((req.url ?? '').split('?')[0]);
    serve(req, res, 'hub', m ? o.files[`${m[1]}@${m[2]}/${decodeURIComponent(m[3])}`] : undefined);
  });
  const cdn = createServer((req, res) => {
    const m = /^\/blobs\/([0-9a-f]{64})$/.exec(req.url ?? '');
    serve(req, res, 'cdn', m ? bySha.get(m[1]) : undefined);
  });
  track(hub);
  track(cdn);
  const url = await listen(hub);
  const cdnUrl = await listen(cdn);
  const closeHub = closer(hub, sockets);
  const closeCdn = closer(cdn, sockets);
  return { url, requests, close: async () => void (await Promise.all([closeHub(), closeCdn()])) };
}

/** A forward proxy on 127.0.0.1 that tunnels CONNECT requests (as undici's ProxyAgent sends them); counts them. */
export async function startFakeProxy(): Promise<{ url: string; connects: string[]; close(): Promise<void> }> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const s = createServer((_req, res) => res.writeHead(405).end());
  s.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const up = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    for (const so of [client, up]) {
      sockets.add(so);
      so.on('close', () => sockets.delete(so));
      so.on('error', () => so.destroy());
    }
  });
  const url = await listen(s);
  return { url, connects, close: closer(s, sockets) };
}
