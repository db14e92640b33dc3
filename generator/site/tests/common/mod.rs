//! A copy of the real project in a temp dir, so a test can break one thing in it.
//! The one fixture of the generator's tests: `site`'s test crates use it as `mod common`,
//! `editing`'s include this file by path; each uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn copy_dir(from: &Path, to: &Path) {
    let walk = walkdir::WalkDir::new(from).into_iter();
    for entry in walk.filter_entry(|e| e.file_name() != "ssr-cache") {
        let entry = entry.expect("walk the source tree");
        let target = to.join(entry.path().strip_prefix(from).expect("under the source"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("create a folder");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

pub(crate) struct Fixture {
    pub dir: tempfile::TempDir,
}

impl Fixture {
    /// The real `content/`, `templates/` and built islands (without their SSR cache) copied
    /// into a fresh temp dir.
    pub(crate) fn real_site() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        for sub in ["content", "templates", "islands/build"] {
            copy_dir(&repo_root().join(sub), &dir.path().join(sub));
        }
        Fixture { dir }
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The copy as a project; its encoded images and prerendered islands come from the
    /// repository's caches (or `IMAGE_CACHE_DIR`, `SSR_CACHE_DIR`), so that no test encodes
    /// the site's photographs again or starts node for islands another build rendered.
    pub(crate) fn project(&self) -> site::Project {
        let mut project = site::Project::at(self.root());
        if std::env::var_os(site::images::CACHE_ENV).is_none() {
            project.image_cache = repo_root().join(".cache").join("images");
        }
        if std::env::var_os(site::islands::CACHE_ENV).is_none() {
            project.ssr_cache = repo_root().join(".cache").join("ssr");
        }
        project
    }

    /// The copy as a project with a cache of prerendered islands of its own, empty: for a test
    /// that counts what node renders.
    pub(crate) fn project_with_own_ssr_cache(&self) -> site::Project {
        site::Project {
            ssr_cache: self.path("islands/build/ssr-cache"),
            ..self.project()
        }
    }

    pub(crate) fn path(&self, relative: &str) -> PathBuf {
        self.root().join(relative)
    }

    pub(crate) fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).expect("read fixture file")
    }

    pub(crate) fn write(&self, relative: &str, text: &str) {
        self.write_bytes(relative, text.as_bytes());
    }

    pub(crate) fn write_bytes(&self, relative: &str, bytes: &[u8]) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("create folder");
        std::fs::write(path, bytes).expect("write fixture file");
    }

    /// Replaces the first occurrence of `from` in a file, failing if it is not there.
    pub(crate) fn edit(&self, relative: &str, from: &str, to: &str) {
        let text = self.read(relative);
        assert!(text.contains(from), "{relative} does not contain {from:?}");
        self.write(relative, &text.replacen(from, to, 1));
    }

    /// 1-based line of the first line of `relative` that contains `needle`.
    pub(crate) fn line_of(&self, relative: &str, needle: &str) -> usize {
        self.read(relative)
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .unwrap_or_else(|| panic!("{relative} has no line with {needle:?}"))
    }

    /// The content problems of a check that must fail.
    pub(crate) fn problems(&self) -> Vec<content::Diagnostic> {
        match site::check(&self.project()) {
            Ok(_) => panic!("the check passed, but a problem was expected"),
            Err(e) => e.diagnostics().to_vec(),
        }
    }
}

/// Asserts that exactly one problem points at `file`:`line` and mentions `text`.
pub(crate) fn assert_problem(
    problems: &[content::Diagnostic],
    file: &str,
    line: usize,
    text: &str,
) {
    let found = problems
        .iter()
        .any(|d| d.file.ends_with(file) && d.line == line && d.english().contains(text));
    assert!(
        found,
        "no problem at {file}:{line} mentioning {text:?} in {problems:#?}"
    );
}
