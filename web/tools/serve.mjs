// A small static file server for the playground, on the loopback interface only.
// It serves the page (web/public) and the built module (build/web/reach.wasm) from one origin,
// since browsers only compile a module fetched with the application/wasm type, and three.js's
// ES modules from web/node_modules under /vendor/three/ (the page's import map names them), so
// the 3-D page needs neither a bundler nor a CDN.
//
//   node web/tools/serve.mjs [--port N] [--host ADDRESS]
//
// The browser test imports startServer and runs it on a free port.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEFAULT_ROOTS = [path.join(REPO, 'web', 'public'), path.join(REPO, 'build', 'web')];
// URL prefixes served from a folder of their own: only three.js's module builds and its
// examples (the loaders and controls), not the rest of the package.
const DEFAULT_MOUNTS = [
  ['/vendor/three/build/', path.join(REPO, 'web', 'node_modules', 'three', 'build')],
  ['/vendor/three/examples/jsm/', path.join(REPO, 'web', 'node_modules', 'three', 'examples', 'jsm')],
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.urdf': 'application/xml',
  '.gltf': 'model/gltf+json',
  '.glb': 'model/gltf-binary',
  '.bvh': 'text/plain; charset=utf-8',
};

// The file a URL path names under a mount or one of the roots, or null. Paths that climb out of
// a root ("..", encoded or not) name nothing.
async function findFile(roots, mounts, urlPath) {
  let relative;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (relative.endsWith('/')) relative += 'index.html';
  const mount = mounts.find(([prefix]) => relative.startsWith(prefix));
  if (mount) {
    relative = relative.slice(mount[0].length - 1);
    roots = [mount[1]];
  }
  for (const root of roots) {
    const file = path.resolve(root, '.' + path.posix.normalize('/' + relative));
    if (!file.startsWith(root + path.sep)) continue;
    try {
      if ((await fs.stat(file)).isFile()) return file;
    } catch {
      // not under this root; try the next
    }
  }
  return null;
}

async function handle(roots, mounts, request, response) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await findFile(roots, mounts, new URL(request.url, 'http://localhost').pathname);
  if (!file) {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    return;
  }
  const body = await fs.readFile(file);
  response.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    // A playground under development: always the file as it is now.
    'Cache-Control': 'no-store',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

// Resolves to { server, url } once listening. port 0 picks a free port.
export function startServer({ roots = DEFAULT_ROOTS, mounts = DEFAULT_MOUNTS, host = '127.0.0.1', port = 0 } = {}) {
  const server = http.createServer((request, response) => {
    handle(roots, mounts, request, response).catch((error) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({ server, url: `http://${address.address}:${address.port}/` });
    });
  });
}

function option(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const port = Number(option(args, '--port', process.env.WEB_PORT ?? '8080'));
  const host = option(args, '--host', '127.0.0.1');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: bad port '${option(args, '--port', '')}'`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ host, port });
    console.log(`reach playground: ${url}  (Ctrl-C to stop)`);
  } catch (error) {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  }
}
