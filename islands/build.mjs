// Builds the islands: hashed, minified browser bundles with React in a shared chunk, the
// tiny loader and site script, the node SSR bundle, and manifest.json naming each file.
import { build } from "esbuild";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "build");
const browserOut = join(out, "browser");
rmSync(out, { recursive: true, force: true });

const islandNames = readdirSync(join(here, "src", "islands"))
  .filter((f) => f.endsWith(".tsx"))
  .map((f) => basename(f, ".tsx"));

// Each island gets a tiny entry that mounts it; they share React through code splitting.
const entryDir = join(out, "entries");
mkdirSync(entryDir, { recursive: true });
for (const name of islandNames) {
  writeFileSync(
    join(entryDir, `${name}.ts`),
    `import { mountWith } from "../../src/hydrate";\nimport C from "../../src/islands/${name}";\nexport const mount = mountWith(C);\n`,
  );
}

const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", target: "es2020" };

const PUBLIC = "/assets/islands";
/** The signed-in panel's address stays an address: the browser imports it, esbuild does not. */
const panelExternal = {
  name: "panel-external",
  setup(b) {
    b.onResolve({ filter: /^\/assets\/islands\// }, (args) => ({ path: args.path, external: true }));
  },
};
const panelEntry = join(here, "src", "admin", "app", "main.tsx");

/**
 * The islands and the panel's sign-in: React in one chunk they share, `vendor.ts` importing all
 * of it so that it stays one chunk. `panelApp` is the address of the signed-in panel, which the
 * sign-in imports once the administrator is in.
 */
const islandsBuild = (panelApp) =>
  build({
    ...common,
    entryPoints: [...islandNames.map((n) => join(entryDir, `${n}.ts`)), join(here, "src", "vendor.ts")],
    outdir: browserOut,
    format: "esm",
    splitting: true,
    entryNames: "[name].[hash]",
    chunkNames: "chunks/[name].[hash]",
    metafile: true,
    define: { "process.env.NODE_ENV": '"production"', PANEL_APP: JSON.stringify(panelApp) },
    plugins: [panelExternal],
  });

/** The output of `meta` made from the entry `source`. */
function outputOf(meta, source) {
  const found = Object.entries(meta.metafile.outputs).find(
    ([, o]) => o.entryPoint && join(process.cwd(), o.entryPoint) === source,
  );
  if (!found) throw new Error(`no output for ${source}`);
  return { path: relative(browserOut, join(process.cwd(), found[0])), exports: found[1].exports };
}

// First without the panel's address: what matters here is where React is (vendor.js).
const first = await islandsBuild(`${PUBLIC}/panel/pending.js`);
const vendor = outputOf(first, join(here, "src", "vendor.ts"));
for (const file of Object.keys(first.metafile.outputs)) rmSync(join(process.cwd(), file));

// The signed-in panel, a build of its own: every view a chunk loaded when it is opened, the
// visual editor's framework only with the visual editor. React is not bundled again: it is
// imported from vendor.js, so the public islands' shared chunk stays exactly as it was (code
// splitting in one build would split it by who imports what). A name vendor.ts does not export
// fails this build.
const fromVendor = {
  name: "react-from-vendor",
  setup(b) {
    b.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, (args) => {
      if (!["react", "react/jsx-runtime", "react-dom", "react-dom/client"].includes(args.path)) {
        return { errors: [{ text: `${args.path}: the panel takes React only through vendor.ts` }] };
      }
      return { path: args.path, namespace: "vendor" };
    });
    b.onLoad({ filter: /.*/, namespace: "vendor" }, () => ({
      contents: `export { ${vendor.exports.join(", ")} } from "${PUBLIC}/${vendor.path}";`,
      loader: "js",
    }));
    b.onResolve({ filter: /^\/assets\/islands\// }, (args) => ({ path: args.path, external: true }));
  },
};
const panelBuild = await build({
  ...common,
  entryPoints: [panelEntry],
  outdir: browserOut,
  format: "esm",
  splitting: true,
  entryNames: "panel/[name].[hash]",
  chunkNames: "panel/[name].[hash]",
  metafile: true,
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [fromVendor],
});
const panelApp = `${PUBLIC}/${outputOf(panelBuild, panelEntry).path}`;
if (process.env.PANEL_META) writeFileSync(process.env.PANEL_META, JSON.stringify(panelBuild.metafile));

// Again, now with the panel's address; React's files are the same files.
const islandsMeta = await islandsBuild(panelApp);
if (outputOf(islandsMeta, join(here, "src", "vendor.ts")).path !== vendor.path) {
  throw new Error("vendor.js changed with the panel's address: the panel would import another React");
}

const loaderBuild = await build({
  ...common,
  entryPoints: [join(here, "src", "loader.ts")],
  outdir: browserOut,
  format: "iife",
  entryNames: "[name].[hash]",
  metafile: true,
});

// The page script of every page, a module: what only some pages or moments need (the consent
// banner, the home page's calendar, the telephony widget's loader) is imported when needed,
// as files of its own under lazy/.
const siteBuild = await build({
  ...common,
  entryPoints: [join(here, "src", "site.ts")],
  outdir: browserOut,
  format: "esm",
  splitting: true,
  entryNames: "[name].[hash]",
  chunkNames: "lazy/[name].[hash]",
  charset: "utf8",
  metafile: true,
});
const scriptsBuild = { metafile: { outputs: { ...loaderBuild.metafile.outputs, ...siteBuild.metafile.outputs } } };

await build({
  ...common,
  minify: false,
  entryPoints: [join(here, "src", "ssr.tsx")],
  outfile: join(out, "ssr.cjs"),
  platform: "node",
  format: "cjs",
  define: { "process.env.NODE_ENV": '"production"', PANEL_APP: JSON.stringify(`${PUBLIC}/panel/unused.js`) },
  plugins: [panelExternal],
});

const manifest = { scripts: {}, islands: {} };
for (const [file, meta] of Object.entries({ ...islandsMeta.metafile.outputs, ...scriptsBuild.metafile.outputs })) {
  if (!meta.entryPoint) continue;
  const name = basename(meta.entryPoint).replace(/\.tsx?$/, "");
  const path = relative(browserOut, join(process.cwd(), file));
  if (islandNames.includes(name)) manifest.islands[name] = path;
  else manifest.scripts[`${name}.js`] = path;
}
writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
rmSync(entryDir, { recursive: true, force: true });
console.log(`islands built: ${islandNames.join(", ")}`);
