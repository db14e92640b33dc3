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

// The panel's editor framework (src/admin/visual/framework.ts) is bundled on its own first: its
// modules need bundler helpers (namespace objects) that esbuild would otherwise put into the chunk
// the panel shares with the public islands, changing it. Bundled, it is plain code of the panel.
const framework = join(out, "framework", "framework.mjs");
await build({
  ...common,
  minify: false,
  entryPoints: [join(here, "src", "admin", "visual", "framework.ts")],
  outfile: framework,
  format: "esm",
});
const prebuiltFramework = {
  name: "prebuilt-framework",
  setup(b) {
    b.onResolve({ filter: /^\.\/framework$/ }, (args) =>
      args.resolveDir === join(here, "src", "admin", "visual") ? { path: framework } : undefined,
    );
  },
};

const islandsBuild = await build({
  ...common,
  entryPoints: [...islandNames.map((n) => join(entryDir, `${n}.ts`)), join(here, "src", "vendor.ts")],
  outdir: browserOut,
  format: "esm",
  splitting: true,
  entryNames: "[name].[hash]",
  chunkNames: "chunks/[name].[hash]",
  metafile: true,
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [prebuiltFramework],
});

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
  define: { "process.env.NODE_ENV": '"production"' },
});

const manifest = { scripts: {}, islands: {} };
for (const [file, meta] of Object.entries({ ...islandsBuild.metafile.outputs, ...scriptsBuild.metafile.outputs })) {
  if (!meta.entryPoint) continue;
  const name = basename(meta.entryPoint).replace(/\.tsx?$/, "");
  const path = relative(browserOut, join(process.cwd(), file));
  if (islandNames.includes(name)) manifest.islands[name] = path;
  else manifest.scripts[`${name}.js`] = path;
}
writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
rmSync(entryDir, { recursive: true, force: true });
rmSync(dirname(framework), { recursive: true, force: true });
console.log(`islands built: ${islandNames.join(", ")}`);
