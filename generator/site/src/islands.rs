//! React islands: templates call `island(name=…, props=…)`, which leaves a placeholder; after
//! all pages are rendered, every island not yet in the cache is prerendered in one node call
//! (`react-dom/server` through the esbuild SSR bundle) and the placeholders are filled in.

use rayon::prelude::*;
use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::output::Output;
use content::encoding::{hex, script_json};

/// Where the browser files are published.
pub(crate) const PUBLIC_DIR: &str = "assets/islands";
/// Marks where a page's loader script goes; removed on pages without islands.
pub(crate) const LOADER_MARKER: &str = "<!--island-loader-->";

/// When an island fetches React and its code (`island(hydrate=…)`, read by `loader.ts`): as it
/// nears the viewport (the default), when the browser is idle, or at the first pointer,
/// focus or key on it (before that its HTML works alone: a link, a form that posts).
const HYDRATE_WHEN: [&str; 3] = ["visible", "idle", "interaction"];
/// How a prerendered island's placeholder starts.
pub(crate) const PLACEHOLDER_START: &str = "<!--island:";

/// `islands/build/manifest.json`, written by `islands/build.mjs`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Manifest {
    pub scripts: BTreeMap<String, String>,
    pub islands: BTreeMap<String, String>,
}

fn islands_error(message: impl Into<String>) -> Error {
    Error::Islands(message.into())
}

impl Manifest {
    pub fn load(build_dir: &Path) -> Result<Self> {
        let path = build_dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            islands_error(format!(
                "{} is missing ({e}): build the islands with `make islands`",
                path.display()
            ))
        })?;
        serde_json::from_str(&text).map_err(|e| islands_error(format!("{}: {e}", path.display())))
    }

    /// Public address of a script named in the manifest (`site.js`, `loader.js`).
    pub fn script_url(&self, name: &str) -> Option<String> {
        self.scripts.get(name).map(|f| format!("/{PUBLIC_DIR}/{f}"))
    }
}

/// One island call found while rendering.
#[derive(Debug, Clone)]
struct Call {
    name: String,
    props: Value,
    id_prefix: String,
}

/// What identifies an island's HTML: the bundle, the island, its props, and the `id` the
/// template gives to tell apart two islands that have the same props.
fn key_of(bundle_hash: &str, name: &str, props: &Value, id: &str) -> String {
    let digest = Sha256::digest(format!("{bundle_hash}\n{name}\n{props}\n{id}").as_bytes());
    hex(&digest[..12])
}

/// React's `identifierPrefix` of the island with `key`: the ids `useId` makes in it
/// (`_i1a2b3c4d5e6-R_0_`) are then its own, however many islands a page has. The same
/// prefix prerenders it and hydrates it.
fn id_prefix(key: &str) -> String {
    format!("i{}-", &key[..key.len().min(12)])
}

fn placeholder(key: &str) -> String {
    format!("{PLACEHOLDER_START}{key}-->")
}

/// The Tera function `island`: records the call and returns its wrapper with a placeholder.
struct IslandFunction {
    manifest: Arc<Manifest>,
    bundle_hash: String,
    calls: Arc<Mutex<BTreeMap<String, Call>>>,
}

impl tera::Function for IslandFunction {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let name = args
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| tera::Error::msg("island() needs name=\"…\""))?;
        let file = self.manifest.islands.get(name).ok_or_else(|| {
            tera::Error::msg(format!(
                "there is no island '{name}' in islands/src/islands/"
            ))
        })?;
        let hydrate = args
            .get("hydrate")
            .and_then(Value::as_str)
            .unwrap_or("visible");
        if !HYDRATE_WHEN.contains(&hydrate) {
            return Err(tera::Error::msg(format!(
                "island(): hydrate=\"{hydrate}\" is none of {}",
                HYDRATE_WHEN.join(", ")
            )));
        }
        let mut props: Map<String, Value> = match args.get("props") {
            Some(Value::Object(map)) => map.clone(),
            Some(_) => return Err(tera::Error::msg("island(): props must be an object")),
            None => Map::new(),
        };
        for (k, v) in args {
            if !["name", "props", "hydrate", "id"].contains(&k.as_str()) {
                props.insert(k.clone(), v.clone());
            }
        }
        let props = Value::Object(props);
        let id = args.get("id").and_then(Value::as_str).unwrap_or_default();
        let key = key_of(&self.bundle_hash, name, &props, id);
        let id_prefix = id_prefix(&key);
        let html = format!(
            "<div class=\"island\" data-island=\"{name}\" data-hydrate=\"{hydrate}\" data-src=\"/{PUBLIC_DIR}/{file}\" data-id-prefix=\"{id_prefix}\"><script type=\"application/json\">{}</script><div class=\"island-root\" data-island-root>{}</div></div>",
            script_json(&props),
            placeholder(&key)
        );
        let mut calls = self
            .calls
            .lock()
            .map_err(|_| tera::Error::msg("island registry poisoned"))?;
        calls.insert(
            key,
            Call {
                name: name.to_string(),
                props,
                id_prefix,
            },
        );
        Ok(Value::String(html))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// Everything needed to render islands in one build.
#[derive(Clone)]
pub struct Islands {
    pub manifest: Arc<Manifest>,
    build_dir: PathBuf,
    cache_dir: PathBuf,
    bundle_hash: String,
    calls: Arc<Mutex<BTreeMap<String, Call>>>,
}

/// How many islands one build prerendered, and whether it started node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SsrStats {
    pub islands: usize,
    pub rendered_by_node: usize,
}

/// The environment variable that moves the cache of prerendered islands.
pub const CACHE_ENV: &str = "SSR_CACHE_DIR";

/// The folder of prerendered islands: `SSR_CACHE_DIR`, or `ssr-cache` beside the SSR bundle.
/// Each file is named by the bundle, the island and its props, so copies of a project (the
/// tests') may share one folder as they share the image cache.
pub(crate) fn default_cache_dir(build_dir: &Path) -> PathBuf {
    match std::env::var_os(CACHE_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => build_dir.join("ssr-cache"),
    }
}

impl Islands {
    /// The islands of `build_dir` (`islands/build`), their prerendered HTML kept in `cache_dir`.
    pub fn load(build_dir: &Path, cache_dir: &Path) -> Result<Self> {
        let manifest = Manifest::load(build_dir)?;
        let bundle = build_dir.join("ssr.cjs");
        let bytes = std::fs::read(&bundle).map_err(|e| Error::read(&bundle, e))?;
        let bundle_hash = hex(&Sha256::digest(&bytes)[..8]);
        Ok(Self {
            manifest: Arc::new(manifest),
            build_dir: build_dir.to_path_buf(),
            cache_dir: cache_dir.to_path_buf(),
            bundle_hash,
            calls: Arc::default(),
        })
    }

    pub fn register(&self, tera: &mut tera::Tera) {
        tera.register_function(
            "island",
            IslandFunction {
                manifest: Arc::clone(&self.manifest),
                bundle_hash: self.bundle_hash.clone(),
                calls: Arc::clone(&self.calls),
            },
        );
    }

    /// Changes whenever the SSR bundle or the manifest changes.
    pub fn fingerprint(&self) -> Vec<u8> {
        let mut bytes = self.bundle_hash.clone().into_bytes();
        for (name, file) in self
            .manifest
            .scripts
            .iter()
            .chain(self.manifest.islands.iter())
        {
            bytes.extend_from_slice(name.as_bytes());
            bytes.extend_from_slice(file.as_bytes());
        }
        bytes
    }

    /// The browser files, published under `assets/islands/`.
    pub fn browser_outputs(&self) -> Result<Vec<Output>> {
        crate::assets::copied(&self.build_dir.join("browser"), &format!("{PUBLIC_DIR}/"))
    }

    fn cache_path(&self, key: &str) -> PathBuf {
        self.cache_dir.join(format!("{key}.html"))
    }

    /// Prerenders every recorded island, from the cache where it can, the rest in one node call.
    fn prerender(&self) -> Result<(HashMap<String, String>, SsrStats)> {
        let calls = self
            .calls
            .lock()
            .map_err(|_| islands_error("island registry poisoned"))?
            .clone();
        let mut html = HashMap::new();
        let mut missing = Vec::new();
        let cache = content::beneath::Root::new(&self.cache_dir);
        for (key, call) in &calls {
            let cached = cache.read(&self.cache_path(key)).ok();
            match cached.and_then(|bytes| String::from_utf8(bytes).ok()) {
                Some(cached) => {
                    html.insert(key.clone(), cached);
                }
                None => missing.push((key.clone(), call.clone())),
            }
        }
        let stats = SsrStats {
            islands: calls.len(),
            rendered_by_node: missing.len(),
        };
        if missing.is_empty() {
            return Ok((html, stats));
        }
        tracing::info!(islands = missing.len(), "prerendering islands with node");
        let rendered = run_node(&self.build_dir.join("ssr.cjs"), &missing)?;
        for ((key, _), markup) in missing.into_iter().zip(rendered) {
            // Written to a temporary file and renamed: builds sharing the folder never read half
            // a file. A cache that cannot be written only costs time.
            let path = self.cache_path(&key);
            let written = std::fs::create_dir_all(&self.cache_dir)
                .and_then(|()| cache.write_atomic(&path, markup.as_bytes()));
            if let Err(e) = written {
                tracing::warn!("cannot write {} to the islands' cache: {e}", path.display());
            }
            html.insert(key, markup);
        }
        Ok((html, stats))
    }

    /// Fills every placeholder in the HTML outputs and adds the loader where islands are:
    /// the pages in parallel (every page is read for its placeholders and loader mark).
    pub fn finish(&self, outputs: &mut [Output]) -> Result<SsrStats> {
        let (html, stats) = self.prerender()?;
        let loader = self
            .manifest
            .script_url("loader.js")
            .map(|src| format!("<script src=\"{src}\" defer></script>"))
            .unwrap_or_default();
        outputs
            .par_iter_mut()
            .filter(|o| o.is_page())
            .try_for_each(|output| self.fill(output, &html, &loader))?;
        Ok(stats)
    }

    /// One page of [`Islands::finish`]: its placeholders filled from `html`, its loader mark
    /// replaced by `loader` where it shows an island and removed where it shows none.
    fn fill(
        &self,
        output: &mut Output,
        html: &HashMap<String, String>,
        loader: &str,
    ) -> Result<()> {
        let Ok(page) = std::str::from_utf8(&output.bytes) else {
            return Ok(());
        };
        let has_islands = page.contains(PLACEHOLDER_START);
        if !has_islands && !page.contains(LOADER_MARKER) {
            return Ok(());
        }
        let mut text = page.to_string();
        for (key, markup) in html.iter().filter(|_| has_islands) {
            let mark = placeholder(key);
            match text.matches(&mark).count() {
                0 => {}
                1 => text = text.replacen(&mark, markup, 1),
                _ => {
                    let calls = self.calls.lock().ok();
                    let name = calls
                        .as_ref()
                        .and_then(|c| c.get(key))
                        .map_or("", |c| c.name.as_str());
                    return Err(islands_error(format!(
                        "{} shows the island {name} twice with the same props, so their ids would repeat: give each call its own id=\"…\"",
                        output.path
                    )));
                }
            }
        }
        text = text.replace(LOADER_MARKER, if has_islands { loader } else { "" });
        output.bytes = text.into();
        Ok(())
    }
}

/// The Node.js binary: `NODE`, or `node` from the path.
pub fn node_binary() -> String {
    std::env::var("NODE").unwrap_or_else(|_| "node".to_string())
}

fn run_node(bundle: &Path, calls: &[(String, Call)]) -> Result<Vec<String>> {
    let jobs: Vec<Value> = calls
        .iter()
        .map(|(_, c)| serde_json::json!({ "name": c.name, "props": c.props, "idPrefix": c.id_prefix }))
        .collect();
    let input = Value::Array(jobs).to_string();
    let mut child = subprocess::command(node_binary())
        .arg(bundle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| islands_error(format!("cannot start node to prerender islands: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .map_err(|e| islands_error(format!("cannot send islands to node: {e}")))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| islands_error(format!("node did not finish: {e}")))?;
    if !out.status.success() {
        return Err(islands_error(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    let rendered: Vec<String> = serde_json::from_slice(&out.stdout).map_err(|e| {
        islands_error(format!(
            "node answered something that is not a list of HTML: {e}"
        ))
    })?;
    if rendered.len() != calls.len() {
        return Err(islands_error(format!(
            "node rendered {} of {} islands",
            rendered.len(),
            calls.len()
        )));
    }
    Ok(rendered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_change_with_name_props_and_bundle() {
        let a = serde_json::json!({ "label": "A" });
        let b = serde_json::json!({ "label": "B" });
        let base = key_of("h1", "BookingButton", &a, "");
        assert_eq!(base, key_of("h1", "BookingButton", &a, ""));
        assert_ne!(base, key_of("h1", "BookingButton", &b, ""));
        assert_ne!(base, key_of("h2", "BookingButton", &a, ""));
        assert_ne!(base, key_of("h1", "ContactForm", &a, ""));
        assert_ne!(base, key_of("h1", "BookingButton", &a, "dolny"));
        assert_ne!(
            id_prefix(&base),
            id_prefix(&key_of("h1", "BookingButton", &b, ""))
        );
    }
}
