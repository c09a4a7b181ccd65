/**
 * A local stand-in for the Hugging Face Hub, reached through HF_ENDPOINT exactly as a mirror is.
 * It answers the endpoints @huggingface/hub calls for a download into the cache:
 *   GET  /api/models/<org>/<name>/revision/<rev>     model info (sha = the revision's commit)
 *   POST /api/models/<org>/<name>/paths-info/<rev>   file oid, size, last commit
 *   GET  /<org>/<name>/resolve/<rev>/<path>          the file (Range requests answered with 206)
 * with the Hub's failure answers: 401 (gated or private, no token), 403 (gated, token without
 * access), 404 with X-Error-Code RepoNotFound / RevisionNotFound / EntryNotFound, 307 redirects,
 * and slow answers. Binds 127.0.0.1 only, counts every request, and closes itself after `lifetimeMs`.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface FakeRepo {
  /** Branch or tag → files at that revision (path → text or bytes). `main` is required. */
  revisions: Record<string, Record<string, string | Buffer>>;
  /** 'gated': 401 without a token, 403 with a token other than `grantedToken`. */
  access?: 'public' | 'gated';
  grantedToken?: string;
  /** Milliseconds to wait before answering, for the first `slowTimes` requests (Infinity: always). */
  slowMs?: number;
  slowTimes?: number;
  /** Answer every file download with a 307 to another URL on this server (as the Hub does for CDN and renamed repos). */
  redirect?: boolean;
  /** Answer 500 to whole-file downloads (Range probes still succeed): a download that fails half-way. */
  brokenDownload?: boolean;
}

export interface FakeHub {
  url: string;
  /** Every request, as `METHOD path` (query dropped). */
  requests: string[];
  close(): Promise<void>;
}

/** The git blob id of a text (what the Hub reports as a small file's oid). */
const gitOid = (content: string | Buffer) => {
  const bytes = Buffer.from(content);
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
};
/** A stable 40-hex commit id per repository and revision. */
const commitOf = (repo: string, rev: string) => createHash('sha1').update(`${repo}@${rev}`).digest('hex');

export async function startFakeHub(repos: Record<string, FakeRepo>, lifetimeMs = 120_000): Promise<FakeHub> {
  const requests: string[] = [];
  const slowSeen = new Map<string, number>();
  const pending = new Set<ServerResponse>();

  const revisionOf = (repo: FakeRepo, id: string, rev: string): { commit: string; files: Record<string, string | Buffer> } | undefined => {
    for (const [name, files] of Object.entries(repo.revisions)) {
      const commit = commitOf(id, name);
      if (rev === name || rev === commit) return { commit, files };
    }
    return undefined;
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    requests.push(`${req.method} ${path}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);

    // /cdn/<repo id>/<commit>/<file>: where redirected downloads land.
    const cdn = /^\/cdn\/([^/]+\/[^/]+)\/([0-9a-f]{40})\/(.+)$/.exec(path);
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/(revision|paths-info)\/([^/]+)$/.exec(path);
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    const id = cdn?.[1] ?? api?.[1] ?? resolve?.[1];
    const repo = id ? repos[id] : undefined;
    if (!id || !repo) {
      return json(res, 404, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' });
    }
    if (repo.slowMs) {
      const n = (slowSeen.get(id) ?? 0) + 1;
      slowSeen.set(id, n);
      if (n <= (repo.slowTimes ?? Infinity)) {
        pending.add(res);
        await new Promise((r) => setTimeout(r, repo.slowMs).unref());
        pending.delete(res);
        if (res.destroyed || res.writableEnded) return;
      }
    }
    if (repo.access === 'gated') {
      const auth = req.headers.authorization;
      if (!auth)
        return json(
          res,
          401,
          { error: `Access to model ${id} is restricted. You must have access to it and be authenticated to access it. Please log in.` },
          { 'X-Error-Code': 'GatedRepo' },
        );
      if (auth !== `Bearer ${repo.grantedToken}`)
        return json(
          res,
          403,
          { error: `Access to model ${id} is restricted and you are not in the authorized list. Visit /${id} to ask for access.` },
          { 'X-Error-Code': 'GatedRepo' },
        );
    }
    const rev = cdn?.[2] ?? api?.[3] ?? resolve?.[2] ?? 'main';
    const at = revisionOf(repo, id, rev);
    if (!at) return json(res, 404, { error: `Invalid rev id: ${rev}` }, { 'X-Error-Code': 'RevisionNotFound' });

    if (api?.[2] === 'revision') {
      return json(res, 200, {
        _id: commitOf(id, 'id'),
        id,
        sha: at.commit,
        private: false,
        gated: repo.access === 'gated' ? 'manual' : false,
        downloads: 0,
        likes: 0,
        lastModified: '2025-01-01T00:00:00.000Z',
        pipeline_tag: 'text-generation',
        siblings: Object.keys(at.files).map((rfilename) => ({ rfilename })),
      });
    }
    if (api?.[2] === 'paths-info') {
      let asked: string[] = [];
      try {
        asked = JSON.parse(Buffer.concat(chunks).toString('utf8')).paths ?? [];
      } catch {
        return json(res, 400, { error: 'paths-info expects a JSON body' });
      }
      // Only the paths asked for that exist, as the Hub answers.
      return json(
        res,
        200,
        Object.entries(at.files)
          .filter(([p]) => asked.includes(p))
          .map(([p, text]) => ({
            type: 'file',
            path: p,
            oid: gitOid(text),
            size: Buffer.from(text).length,
            lastCommit: { id: at.commit, title: 'Upload', date: '2025-01-01T00:00:00.000Z' },
          })),
      );
    }
    const file = cdn?.[3] ?? resolve![3];
    const text = at.files[file];
    if (text === undefined) return json(res, 404, { error: 'Entry not found' }, { 'X-Error-Code': 'EntryNotFound' });
    if (resolve && repo.redirect) {
      res.writeHead(307, { Location: `/cdn/${id}/${at.commit}/${file}` });
      return res.end();
    }
    if (repo.brokenDownload && !req.headers.range) return json(res, 500, { error: 'Internal Error' });
    const body = Buffer.from(text);
    const headers = {
      'Content-Type': typeof text === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
      ETag: `"${gitOid(text)}"`,
      'X-Repo-Commit': at.commit,
      'Accept-Ranges': 'bytes',
    };
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : body.length - 1, body.length - 1);
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${body.length}`, 'Content-Length': String(end - start + 1) });
      return res.end(body.subarray(start, end + 1));
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    res.end(body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) json(res, 500, { error: String(e) });
      else res.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const stopTimer = setTimeout(() => server.close(), lifetimeMs);
  stopTimer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        clearTimeout(stopTimer);
        for (const res of pending) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export { commitOf as fakeCommitOf };
