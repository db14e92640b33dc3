// HTTP conformance: the sidecar's static files compared with Debian's nginx serving
// the very same files — deploy/nginx.conf with the build's _nginx.conf in front of an rclone
// copy of dist/, the edge of edge.test.mjs. For each case the two must agree on the status and
// on the presence and shape of ETag, Last-Modified, Content-Range and Content-Encoding. Where
// they may legitimately differ, the comment says why and the test asserts the rule of RFC
// 9110 both follow instead of equality.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { skip, startEdge } from "./edge.mjs";
import { freePort, startSite, waitFor } from "./harness.mjs";

const PAGE = "/cennik";
let site;
let edge;
let work;
let picture;
let servers;

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function raw(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

function decoded(res) {
  switch (res.headers["content-encoding"]) {
    case "gzip":
      return gunzipSync(res.body);
    case "br":
      return brotliDecompressSync(res.body);
    default:
      return res.body;
  }
}

/** The same request to nginx and to the sidecar. */
async function both(path, headers = {}) {
  const [nginx, sidecar] = await Promise.all(servers.map((s) => raw(s.base + path, headers)));
  return { nginx, sidecar };
}

before(async () => {
  if (skip) return;
  work = mkdtempSync(join(tmpdir(), "harmonia-http-"));
  const edgeRoot = join(work, "edge");
  const [adminPort, edgePanelPort] = [await freePort(), await freePort()];
  site = await startSite(undefined, {
    ADMIN_PORT: String(adminPort),
    ADMIN_ORIGIN: `http://localhost:${edgePanelPort}`,
    PUBLISH_CMD: `rclone sync --config /dev/null "$DIST_DIR/" '${edgeRoot}' && touch '${work}/synced'`,
  });
  // PUBLISH_CMD runs on its own queue after the start's build.
  await waitFor(() => existsSync(join(work, "synced")), "PUBLISH_CMD after the start");
  edge = await startEdge(work, site.base.replace("http://", ""), `127.0.0.1:${adminPort}`, edgePanelPort, edgeRoot);
  servers = [
    { name: "nginx", base: edge.base },
    { name: "sidecar", base: site.base },
  ];
  const images = join(edgeRoot, "images");
  const jpegs = readdirSync(images).filter((f) => f.endsWith(".jpg"));
  const largest = jpegs.sort((a, b) => statSync(join(images, b)).size - statSync(join(images, a)).size)[0];
  picture = { path: `/images/${largest}`, size: statSync(join(images, largest)).size };
  assert.ok(picture.size > 100_000, `${largest} is a large file`);
});

after(async () => {
  await edge?.stop();
  await site?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;
const STRONG_TAG = /^"[^"]+"$/;

describe("the sidecar's static files answer as nginx does on the same files", { skip }, () => {
  test("If-None-Match: the tag, the tag weakened by a CDN, a list holding it and * answer 304; other tags 200", async () => {
    for (const { name, base } of servers) {
      const first = await raw(base + PAGE);
      const etag = first.headers.etag;
      assert.match(etag, STRONG_TAG, `${name}: the plain body has a strong tag`);
      for (const tags of [etag, `W/${etag}`, `"inny", ${etag}`, `W/"inny", W/${etag}`, "*"]) {
        const res = await raw(base + PAGE, { "If-None-Match": tags });
        assert.equal(res.status, 304, `${name}: If-None-Match: ${tags}`);
        assert.equal(res.headers.etag, etag, `${name}: the 304 names the tag`);
        assert.equal(res.body.length, 0);
      }
      for (const tags of [`"inny"`, `W/"inny", "drugi"`]) {
        assert.equal((await raw(base + PAGE, { "If-None-Match": tags })).status, 200, `${name}: ${tags}`);
      }
    }
  });

  test("a compressed body has a tag of its own (nginx weakens it, the sidecar names the coding)", async () => {
    // nginx sends W/"…" for a gzip body; the sidecar a strong tag per coding. Both follow RFC
    // 9110 8.8.3: a strong tag belongs to exactly one sequence of bytes.
    for (const { name, base } of servers) {
      const plain = await raw(base + PAGE);
      const gzip = await raw(base + PAGE, { "Accept-Encoding": "gzip" });
      assert.equal(gzip.headers["content-encoding"], "gzip", name);
      assert.ok(
        gzip.headers.etag.startsWith("W/") || gzip.headers.etag !== plain.headers.etag,
        `${name}: ${gzip.headers.etag} is weak or not the plain body's ${plain.headers.etag}`,
      );
      assert.ok(decoded(gzip).equals(plain.body), name);
      const again = await raw(base + PAGE, { "Accept-Encoding": "gzip", "If-None-Match": gzip.headers.etag });
      assert.equal(again.status, 304, `${name}: the gzip body's tag revalidates it`);
    }
  });

  test("Accept-Encoding: q=0 refuses a coding, names are case-insensitive", async () => {
    const plain = (await raw(site.base + PAGE)).body;
    for (const [accepted, coding] of [
      ["gzip", "gzip"],
      ["GZIP", "gzip"],
      ["Gzip;Q=0.5", "gzip"],
      ["gzip;q=0", undefined],
      ["gzip;q=0, identity", undefined],
      ["br;q=0, gzip", "gzip"],
      ["deflate", undefined],
    ]) {
      const { nginx, sidecar } = await both(PAGE, { "Accept-Encoding": accepted });
      assert.equal(nginx.headers["content-encoding"], coding, `nginx: ${accepted}`);
      assert.equal(sidecar.headers["content-encoding"], coding, `sidecar: ${accepted}`);
      assert.match(sidecar.headers.vary, /accept-encoding/i);
      assert.ok(decoded(nginx).equals(plain) && decoded(sidecar).equals(plain), accepted);
    }
    // nginx-light has no brotli: it sends the plain body, the sidecar brotli. Either is a coding
    // the client accepted (RFC 9110 12.5.3).
    const { nginx, sidecar } = await both(PAGE, { "Accept-Encoding": "br" });
    assert.equal(nginx.headers["content-encoding"], undefined);
    assert.equal(sidecar.headers["content-encoding"], "br");
    assert.ok(decoded(sidecar).equals(plain));
  });

  test("Last-Modified is sent and If-Modified-Since with it answers 304", async () => {
    for (const { name, base } of servers) {
      for (const path of [PAGE, picture.path]) {
        const first = await raw(base + path);
        const modified = first.headers["last-modified"];
        assert.match(modified ?? "", HTTP_DATE, `${name} ${path}`);
        assert.ok(Date.parse(modified) <= Date.now(), `${name}: not in the future`);
        const same = await raw(base + path, { "If-Modified-Since": modified });
        assert.equal(same.status, 304, `${name} ${path}: since its own date`);
        assert.equal(same.headers["last-modified"], modified);
        const dayBefore = new Date(Date.parse(modified) - 86_400_000).toUTCString();
        assert.equal((await raw(base + path, { "If-Modified-Since": dayBefore })).status, 200, `${name}: a day before`);
        // If-None-Match decides when both are sent (RFC 9110 13.2.2); nginx asks both to match.
        const other = await raw(base + path, { "If-None-Match": '"inny"', "If-Modified-Since": modified });
        assert.equal(other.status, 200, `${name}: another tag with the same date`);
      }
      // A date after Last-Modified: the sidecar answers 304 as RFC 9110 13.1.3 says; nginx's
      // default `if_modified_since exact` only for the very date it sent. Not compared.
    }
  });

  test("Range: 206 with Content-Range for a part, 416 past the end, If-Range, Accept-Ranges", async () => {
    for (const { path, size } of [picture, { path: PAGE, size: (await raw(site.base + PAGE)).body.length }]) {
      const { nginx: whole, sidecar: wholeHere } = await both(path);
      assert.equal(whole.headers["accept-ranges"], "bytes", `nginx ${path}`);
      assert.equal(wholeHere.headers["accept-ranges"], "bytes", `sidecar ${path}`);
      assert.ok(whole.body.equals(wholeHere.body), `${path}: the same file`);
      for (const [range, first, last] of [
        ["bytes=0-99", 0, 99],
        ["bytes=100-", 100, size - 1],
        ["bytes=-500", size - 500, size - 1],
        [`bytes=10-${size * 2}`, 10, size - 1],
      ]) {
        const { nginx, sidecar } = await both(path, { Range: range });
        for (const [name, res] of Object.entries({ nginx, sidecar })) {
          assert.equal(res.status, 206, `${name} ${path} ${range}`);
          assert.equal(res.headers["content-range"], `bytes ${first}-${last}/${size}`, `${name} ${range}`);
          assert.ok(res.body.equals(whole.body.subarray(first, last + 1)), `${name} ${range}: the bytes`);
        }
        assert.equal(sidecar.headers.etag, wholeHere.headers.etag, "the part is of the plain body");
      }
      const { nginx, sidecar } = await both(path, { Range: `bytes=${size}-` });
      for (const [name, res] of Object.entries({ nginx, sidecar })) {
        assert.equal(res.status, 416, `${name} ${path}: past the end`);
        assert.equal(res.headers["content-range"], `bytes */${size}`, name);
      }
      for (const { name, base } of servers) {
        const own = await raw(base + path);
        for (const [ifRange, status] of [
          [own.headers.etag, 206],
          [own.headers["last-modified"], 206],
          ['"inny"', 200],
        ]) {
          const res = await raw(base + path, { Range: "bytes=0-9", "If-Range": ifRange });
          assert.equal(res.status, status, `${name} ${path}: If-Range: ${ifRange}`);
        }
      }
    }
    // A compressed body is sent whole by both (a part of a gzip stream is of little use).
    const { nginx, sidecar } = await both(PAGE, { Range: "bytes=0-99", "Accept-Encoding": "gzip" });
    for (const [name, res] of Object.entries({ nginx, sidecar })) {
      assert.equal(res.status, 200, name);
      assert.equal(res.headers["content-encoding"], "gzip", name);
    }
    // Several ranges: nginx answers multipart/byteranges, the sidecar the whole file; RFC 9110
    // 14.2 lets a server ignore Range, and both answers are complete.
    const several = await both(picture.path, { Range: "bytes=0-9,20-29" });
    assert.equal(several.nginx.status, 206);
    assert.match(several.nginx.headers["content-type"], /^multipart\/byteranges/);
    assert.ok(
      (several.sidecar.status === 206 && /^multipart\/byteranges/.test(several.sidecar.headers["content-type"])) ||
        (several.sidecar.status === 200 && several.sidecar.body.length === picture.size),
      `sidecar: ${several.sidecar.status}`,
    );
  });

  test("an overlong target is refused with 414", async () => {
    const long = "a".repeat(9_000);
    for (const path of [`/${long}`, `${PAGE}?q=${long}`, `/blog/${long}/`]) {
      const { nginx, sidecar } = await both(path);
      assert.equal(nginx.status, 414, `nginx: ${path.length} characters`);
      assert.equal(sidecar.status, 414, `sidecar: ${path.length} characters`);
    }
    const { nginx, sidecar } = await both(`/${"a".repeat(8_000)}`);
    assert.equal(nginx.status, 404, "under nginx's 8 KiB request line");
    assert.equal(sidecar.status, 404);
    // Past 65,534 characters actix-http's parser (the `http` crate's limit of a URI) refuses
    // the request with 400 before any handler runs; nginx says 414. Both refuse at once.
    const huge = await both(`/${"a".repeat(70_000)}`);
    assert.equal(huge.nginx.status, 414);
    assert.ok([400, 414].includes(huge.sidecar.status), `sidecar: ${huge.sidecar.status}`);
  });
});
