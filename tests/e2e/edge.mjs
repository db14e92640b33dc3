// Debian's nginx in front of the site as deploy/nginx.conf has it, with the build's own rules
// (_nginx.conf), on loopback ports: the edge of edge.test.mjs and the reference of
// http.test.mjs.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, repoRoot } from "./harness.mjs";

/** Whether `command` is on the PATH. */
export function installed(command) {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const missing = ["nginx", "rclone"].filter((c) => !installed(c));
export const skip = missing.length
  ? `SKIPPED: ${missing.join(" and ")} could not be installed (make test-deps installs nginx-light and rclone from Debian)`
  : false;
if (skip) console.log(skip);

/** Replaces `from` in `text`, failing when the template no longer has it. */
function replaced(text, from, to) {
  const pattern = from instanceof RegExp ? new RegExp(from.source, "gm") : from;
  assert.ok(from instanceof RegExp ? pattern.test(text) : text.includes(from), `deploy/nginx.conf has no ${from}`);
  return text.replace(pattern, to);
}

/** deploy/nginx.conf as an operator fills it in, on loopback ports, TLS left to production. */
function serverBlocks({ port, plainPort, panelPort, upstream, panelUpstream, root, rules }) {
  let text = readFileSync(join(repoRoot, "deploy", "nginx.conf"), "utf8");
  text = replaced(text, "server 127.0.0.1:8080;", `server ${upstream};`);
  text = replaced(text, "server 127.0.0.1:8081;", `server ${panelUpstream};`);
  text = replaced(text, /^\s*listen \[::\]:.*\n/, "");
  text = replaced(text, "listen 80;", `listen 127.0.0.1:${plainPort};`);
  text = replaced(text, "listen 443 ssl http2; # the panel", `listen 127.0.0.1:${panelPort};`);
  text = replaced(text, "listen 443 ssl http2;", `listen 127.0.0.1:${port};`);
  text = replaced(text, /^\s*ssl_certificate.*\n/, "");
  text = replaced(text, "root /srv/harmonia/dist;", `root ${root};`);
  text = replaced(text, "include /etc/nginx/snippets/harmonia-rules.conf;", `include ${rules};`);
  return text;
}

/** nginx in front of the sidecar: the public site at `base`, the panel at `panel` (its own host). */
export async function startEdge(work, upstream, panelUpstream, panelPort, root) {
  const prefix = join(work, "nginx");
  for (const dir of ["", "tmp"]) mkdirSync(join(prefix, dir), { recursive: true });
  // The install step of the README: the build's rules, copied where the server block includes them.
  const rules = join(prefix, "harmonia-rules.conf");
  copyFileSync(join(root, "_nginx.conf"), rules);
  const [port, plainPort] = [await freePort(), await freePort()];
  const asRoot = process.getuid?.() === 0;
  const conf = join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    `${asRoot ? "user root root;\n" : ""}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  keepalive_timeout 5;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
${serverBlocks({ port, plainPort, panelPort, upstream, panelUpstream, root, rules })}
}
`,
  );
  const log = [];
  const child = spawn("nginx", ["-p", prefix, "-c", conf, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d) => log.push(d.toString()));
  child.stderr.on("data", (d) => log.push(d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${log.join("")}`);
    try {
      if ((await fetch(`${base}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${log.join("")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base,
    panel: `http://localhost:${panelPort}`,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    },
  };
}
