// A real git remote for the browser tests of the git sync: bare repositories served over smart
// HTTP by `git http-backend`, behind Debian's nginx through fcgiwrap, as a small forge or a
// self-hosted Gitea does it. `stop()` and `start()` take the remote away and bring it back on
// the same address, for the test of a remote that is down for a while.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installed } from "./edge.mjs";
import { freePort } from "./harness.mjs";

const BACKEND = "/usr/lib/git-core/git-http-backend";
const FCGIWRAP = "/usr/sbin/fcgiwrap";

const missing = [
  ...(installed("nginx") ? [] : ["nginx"]),
  ...(existsSync(FCGIWRAP) ? [] : ["fcgiwrap"]),
  ...(existsSync(BACKEND) ? [] : ["git-http-backend"]),
];
export const skip = missing.length
  ? `SKIPPED: ${missing.join(", ")} missing (make test-deps installs nginx-light and fcgiwrap from Debian)`
  : false;

/** Waits until `child` has made `file` (a socket, a pid file), or fails with its output. */
async function appears(file, child, log, what) {
  const deadline = Date.now() + 15_000;
  while (!existsSync(file)) {
    if (child.exitCode !== null) throw new Error(`${what} exited:\n${log.join("")}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start:\n${log.join("")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `command` in a process group of its own, so that stopping it stops whatever it forked. */
function spawnLogged(command, args) {
  const log = [];
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.on("data", (d) => log.push(d.toString()));
  child.stderr.on("data", (d) => log.push(d.toString()));
  return { child, log };
}

async function stopped(child) {
  if (!child) return;
  const exited = child.exitCode !== null || child.signalCode !== null;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // the group is gone already
  }
  if (!exited) await new Promise((r) => child.once("exit", r));
  // A forked worker may still hold the pipes: the test's process must not wait for them.
  child.stdout.destroy();
  child.stderr.destroy();
}

/**
 * Serves the bare repositories under `projects` at `http://127.0.0.1:<port>/git/<name>.git`
 * (anonymous pushes allowed: the repository's own `http.receivepack`).
 */
export async function startGitServer(work, projects) {
  const prefix = join(work, "git-nginx");
  mkdirSync(join(prefix, "tmp"), { recursive: true });
  const socket = join(prefix, "fcgiwrap.sock");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const conf = join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    `${asRoot ? "user root root;\n" : ""}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_max_body_size 0;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  server {
    listen 127.0.0.1:${port};
    location ~ ^/git(/.*)$ {
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME ${BACKEND};
      fastcgi_param GIT_PROJECT_ROOT ${projects};
      fastcgi_param GIT_HTTP_EXPORT_ALL "";
      fastcgi_param PATH_INFO $1;
      fastcgi_pass unix:${socket};
    }
  }
}
`,
  );
  let wrap = null;
  let nginx = null;
  const server = {
    url: (name) => `http://127.0.0.1:${port}/git/${name}`,
    async start() {
      rmSync(socket, { force: true });
      wrap = spawnLogged(FCGIWRAP, ["-s", `unix:${socket}`]);
      await appears(socket, wrap.child, wrap.log, "fcgiwrap");
      rmSync(join(prefix, "nginx.pid"), { force: true });
      nginx = spawnLogged("nginx", ["-p", prefix, "-c", conf, "-g", "daemon off;"]);
      await appears(join(prefix, "nginx.pid"), nginx.child, nginx.log, "nginx");
    },
    /** The remote goes away: its address refuses connections until `start()`. */
    async stop() {
      await stopped(nginx?.child);
      await stopped(wrap?.child);
    },
  };
  await server.start();
  return server;
}

/** A new bare repository under `projects` that takes anonymous pushes over HTTP. */
export function bareRepository(projects, name) {
  const dir = join(projects, name);
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", dir]);
  execFileSync("git", ["-C", dir, "config", "http.receivepack", "true"]);
  return dir;
}
