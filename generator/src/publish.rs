//! Atomic publish: the output path is a symbolic link to a complete build, swapped in one
//! rename, so that a visitor, a CDN sync or a crash mid-build never sees half a site.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::render::Output;

/// `dist` keeps its builds in the sibling folder `dist.builds/`.
pub fn builds_dir(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!("{name}.builds"))
}

fn next_build_number(builds: &Path) -> Result<u64> {
    let entries = fs::read_dir(builds).map_err(|e| Error::read(builds, e))?;
    let max = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    Ok(max + 1)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| Error::write(parent, e))?;
    }
    let mut file = fs::File::create(path).map_err(|e| Error::write(path, e))?;
    file.write_all(bytes).map_err(|e| Error::write(path, e))
}

/// Writes `outputs` as a new build and makes `out` point at it.
pub fn publish(out: &Path, outputs: &[Output]) -> Result<PathBuf> {
    publish_reusing(out, outputs, &|_| false)
}

/// Like [`publish`], but files for which `unchanged` holds are hard-linked from the build
/// `out` points at now instead of being written again.
pub fn publish_reusing(
    out: &Path,
    outputs: &[Output],
    unchanged: &dyn Fn(&str) -> bool,
) -> Result<PathBuf> {
    let builds = builds_dir(out);
    fs::create_dir_all(&builds).map_err(|e| Error::write(&builds, e))?;
    let number = next_build_number(&builds)?;
    let staging = builds.join(format!("{number}.partial"));
    let _ = fs::remove_dir_all(&staging);
    let current = fs::canonicalize(out).ok();
    let mut made_dirs = std::collections::HashSet::new();
    for output in outputs {
        let target = staging.join(&output.path);
        if let Some(parent) = target.parent() {
            if made_dirs.insert(parent.to_path_buf()) {
                fs::create_dir_all(parent).map_err(|e| Error::write(parent, e))?;
            }
        }
        let linked = unchanged(&output.path)
            && current
                .as_ref()
                .is_some_and(|dir| fs::hard_link(dir.join(&output.path), &target).is_ok());
        if !linked {
            write_file(&target, &output.bytes)?;
        }
    }
    let build = builds.join(number.to_string());
    fs::rename(&staging, &build).map_err(|e| Error::write(&build, e))?;
    swap_link(out, &builds, number)?;
    prune(&builds, number);
    Ok(build)
}

fn swap_link(out: &Path, builds: &Path, number: u64) -> Result<()> {
    let builds_name = builds.file_name().unwrap_or_default();
    let target = Path::new(builds_name).join(number.to_string());
    let temp_link = builds.join(format!("{number}.link"));
    let _ = fs::remove_file(&temp_link);
    std::os::unix::fs::symlink(&target, &temp_link).map_err(|e| Error::write(&temp_link, e))?;
    // A real folder left from an older layout cannot be replaced by rename.
    if out.is_dir() && !out.is_symlink() {
        fs::remove_dir_all(out).map_err(|e| Error::write(out, e))?;
    }
    fs::rename(&temp_link, out).map_err(|e| Error::write(out, e))
}

/// Keeps the current build and the one before it (requests may still be reading it).
fn prune(builds: &Path, current: u64) {
    let Ok(entries) = fs::read_dir(builds) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = match name.parse::<u64>() {
            Ok(n) => n + 1 < current,
            Err(_) => !name.starts_with(&current.to_string()),
        };
        if stale {
            let _ = fs::remove_dir_all(entry.path()).or_else(|_| fs::remove_file(entry.path()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(path: &str, text: &str) -> Output {
        Output {
            path: path.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn publish_swaps_the_link_and_keeps_one_previous_build() {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        for i in 1..=3 {
            publish(&dist, &[out("index.html", &format!("build {i}"))]).unwrap();
            assert_eq!(
                fs::read_to_string(dist.join("index.html")).unwrap(),
                format!("build {i}")
            );
        }
        let mut left: Vec<String> = fs::read_dir(builds_dir(&dist))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, vec!["2", "3"]);
    }

    #[test]
    fn a_real_folder_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        fs::create_dir_all(dist.join("old")).unwrap();
        publish(&dist, &[out("a/index.html", "new")]).unwrap();
        assert!(dist.is_symlink());
        assert!(!dist.join("old").exists());
        assert_eq!(
            fs::read_to_string(dist.join("a/index.html")).unwrap(),
            "new"
        );
    }
}
