//! What an editor's commits may carry, checked from git's own records before any work tree
//! sees them. Every object the commits bring (`git rev-list --objects base..commit`, the
//! commits between included, so a file added and then removed again is seen) is sized from
//! its header (`git cat-file --batch-check`, which never reads an object's bytes) and held to
//! the caps: a file larger than the site takes of its kind, and more objects or bytes than a
//! content change ever needs, are refused wherever in the history they are. The tree entries
//! that changed (`git diff-tree -r -z --raw`) are checked too: symbolic links and submodules
//! anywhere, hidden names and names that are no lowercase slugs inside `content/`, git
//! settings that change how files are checked out (`.gitattributes`, `.gitmodules`), names
//! that are not UTF-8. Both listings are read as they stream, and git is stopped as soon as a
//! cap is passed: a pack made to expand costs the server nothing.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};

use content::limits::{MAX_IMAGE_BYTES, MAX_TEXT_BYTES};
use content::problem::FileProblem;
use content::Problem;

use crate::Repo;

/// The most files one push may change (a whole site is a few hundred).
pub const MAX_CHANGED_FILES: usize = 5_000;
/// The most objects (commits, trees, blobs) one push may bring.
pub const MAX_NEW_OBJECTS: usize = 50_000;
/// The most bytes the changed files of one push may hold together.
pub const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;

/// Files whose kind is a picture: held to the upload limit; any other file of `content/` to
/// the limit of a text.
const PICTURES: [&str; 8] = ["jpg", "jpeg", "png", "webp", "gif", "svg", "avif", "ico"];

/// One changed entry of the commit's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    mode: String,
    object: String,
    deleted: bool,
    path: Vec<u8>,
}

/// Checks what `commit` brings since `base`: `Ok`, or every problem in Polish, each after
/// the repository path it is about.
pub fn vet(repo: &Repo, base: &str, commit: &str) -> Result<(), Vec<String>> {
    let too_many = |what: String| vec![format!("{commit}: {what}")];
    let objects = new_objects(repo, base, commit).map_err(|e| too_many(e.to_string()))?;
    if objects.len() > MAX_NEW_OBJECTS {
        return Err(too_many(format!(
            "zmiana wnosi ponad {MAX_NEW_OBJECTS} obiektów gita — serwer nie przyjmuje tak dużych zmian treści."
        )));
    }
    let headers = object_headers(repo, objects.iter().map(|(o, _)| o.as_str()))
        .map_err(|e| too_many(e.to_string()))?;
    let entries = changed_entries(repo, base, commit).map_err(|e| too_many(e.to_string()))?;
    let mut problems = Vec::new();
    let kept: Vec<&[u8]> = entries
        .iter()
        .filter(|e| !e.deleted)
        .map(|e| e.path.as_slice())
        .collect();
    for entry in entries.iter().filter(|e| !e.deleted) {
        let Ok(path) = std::str::from_utf8(&entry.path) else {
            let shown = String::from_utf8_lossy(&entry.path);
            problems.push(format!(
                "{shown}: nazwa pliku nie jest zapisana w UTF-8 — zmień ją na nazwę z małych liter, cyfr i myślników."
            ));
            continue;
        };
        if let Some(problem) = refusal(repo, path, &entry.mode) {
            problems.push(format!("{path}: {}", Problem::from(problem).polish()));
        }
    }
    let mut total = 0_u64;
    for ((_, path), (kind, size)) in objects.iter().zip(headers) {
        if kind != "blob" {
            continue;
        }
        total = total.saturating_add(size);
        let shown = String::from_utf8_lossy(path);
        let limit = limit_of(repo, &shown);
        if size > limit {
            let problem = Problem::from(FileProblem::TooLarge { bytes: size, limit }).polish();
            let earlier = match kept.contains(&path.as_slice()) {
                true => "",
                false => " Jest w jednym z wysyłanych commitów, choć późniejszy go usuwa: serwer nie przyjmuje takiego pliku także w historii (usuń go z commitów, np. git rebase -i).",
            };
            problems.push(format!("{shown}: {problem}{earlier}"));
        }
    }
    if total > MAX_TOTAL_BYTES {
        problems.push(format!(
            "{commit}: wysyłane pliki mają razem {} MiB, a jedna zmiana treści może mieć najwyżej {} MiB.",
            total / (1024 * 1024),
            MAX_TOTAL_BYTES / (1024 * 1024)
        ));
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}

/// Why the entry at `path` with `mode` may not be checked out, if it may not.
fn refusal(repo: &Repo, path: &str, mode: &str) -> Option<FileProblem> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if mode == "120000" {
        return Some(FileProblem::SymbolicLink);
    }
    if mode == "160000" {
        return Some(FileProblem::Submodule);
    }
    if name == ".gitattributes" || name == ".gitmodules" {
        return Some(FileProblem::GitSettings);
    }
    let in_content = repo.in_content(path);
    let inside = path.strip_prefix(&repo.prefix).unwrap_or(path);
    if in_content && inside.split('/').any(content::walk::is_hidden) {
        return Some(FileProblem::Hidden);
    }
    if let Some(name) = content::kind::bad_content_name(inside).filter(|_| in_content) {
        let name = name.to_string();
        return Some(FileProblem::BadName { name });
    }
    None
}

/// The largest a file at `path` may be: a picture of `content/` the upload limit, any other
/// file of `content/` the limit of a text, a file outside it (code, which waits for a deploy)
/// the upload limit.
fn limit_of(repo: &Repo, path: &str) -> u64 {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let picture = PICTURES.contains(&ext.as_str());
    match repo.in_content(path) && !picture {
        true => MAX_TEXT_BYTES as u64,
        false => MAX_IMAGE_BYTES as u64,
    }
}

fn spawn(repo: &Repo, args: &[&str], stdin: bool) -> std::io::Result<Child> {
    subprocess::git(&repo.top)
        .args(args)
        .stdin(if stdin { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
}

/// Stops git and waits for it.
fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn failed(what: &str) -> std::io::Error {
    std::io::Error::other(format!("git {what} nie powiódł się"))
}

/// Every object `base..commit` brings, each with the path it was first reached at (none for
/// a commit), read up to one past the cap.
fn new_objects(repo: &Repo, base: &str, commit: &str) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let range = format!("{base}..{commit}");
    let mut child = spawn(repo, &["rev-list", "--objects", &range], false)?;
    let stdout = child.stdout.take().ok_or_else(|| failed("rev-list"))?;
    let mut objects = Vec::new();
    for line in BufReader::new(stdout).split(b'\n') {
        let line = line?;
        let (object, path) = match line.iter().position(|b| *b == b' ') {
            Some(space) => (&line[..space], line[space + 1..].to_vec()),
            None => (&line[..], Vec::new()),
        };
        objects.push((String::from_utf8_lossy(object).into_owned(), path));
        if objects.len() > MAX_NEW_OBJECTS {
            stop(child);
            return Ok(objects);
        }
    }
    match child.wait()?.success() {
        true => Ok(objects),
        false => Err(failed("rev-list")),
    }
}

/// The entries of `commit`'s tree that differ from `base`'s, read up to the cap.
fn changed_entries(repo: &Repo, base: &str, commit: &str) -> std::io::Result<Vec<Entry>> {
    let mut child = spawn(
        repo,
        &[
            "diff-tree",
            "-r",
            "-z",
            "--raw",
            "--no-renames",
            "--no-abbrev",
            base,
            commit,
        ],
        false,
    )?;
    let stdout = child.stdout.take().ok_or_else(|| failed("diff-tree"))?;
    let mut fields = BufReader::new(stdout).split(0);
    let mut entries = Vec::new();
    // `:OLDMODE NEWMODE OLDSHA NEWSHA STATUS` NUL `PATH` NUL, for each changed file.
    while let Some(meta) = fields.next() {
        let meta = meta?;
        let path = fields.next().ok_or_else(|| failed("diff-tree"))??;
        let meta = String::from_utf8_lossy(&meta);
        let parts: Vec<&str> = meta.trim_start_matches(':').split(' ').collect();
        let [_, mode, _, object, status] = parts[..] else {
            stop(child);
            return Err(failed("diff-tree"));
        };
        entries.push(Entry {
            mode: mode.to_string(),
            object: object.to_string(),
            deleted: status.starts_with('D'),
            path,
        });
        if entries.len() > MAX_CHANGED_FILES {
            stop(child);
            return Err(std::io::Error::other(format!(
                "zmiana obejmuje ponad {MAX_CHANGED_FILES} plików — serwer nie przyjmuje tak dużych zmian treści."
            )));
        }
    }
    match child.wait()?.success() {
        true => Ok(entries),
        false => Err(failed("diff-tree")),
    }
}

/// The type and size of each object, in order, from git's records of them (not their bytes).
fn object_headers<'a>(
    repo: &Repo,
    objects: impl Iterator<Item = &'a str>,
) -> std::io::Result<Vec<(String, u64)>> {
    let mut child = spawn(
        repo,
        &["cat-file", "--batch-check=%(objecttype) %(objectsize)"],
        true,
    )?;
    let mut stdin = child.stdin.take().ok_or_else(|| failed("cat-file"))?;
    let list: String = objects.map(|o| format!("{o}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_string(&mut out)?;
    }
    let _ = writer.join();
    if !child.wait()?.success() {
        return Err(failed("cat-file"));
    }
    out.lines()
        .map(|l| {
            let (kind, size) = l.trim().split_once(' ').ok_or_else(|| failed("cat-file"))?;
            let size = size.parse::<u64>().map_err(|_| failed("cat-file"))?;
            Ok((kind.to_string(), size))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn git(dir: &Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=T", "-c", "user.email=t@example.pl"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A repository with `content/` and one commit; the repository and its first commit.
    fn repo() -> (tempfile::TempDir, Repo, String) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("content/blog")).expect("mkdir");
        std::fs::write(dir.path().join("content/blog/a.md"), "tekst").expect("write");
        git(dir.path(), &["init", "-q"]);
        git(dir.path(), &["add", "."]);
        git(dir.path(), &["commit", "-q", "-m", "start"]);
        let first = git(dir.path(), &["rev-parse", "HEAD"]);
        let repo = Repo::open(&dir.path().join("content")).expect("repo");
        (dir, repo, first)
    }

    fn commit(dir: &Path) -> String {
        git(dir, &["add", "-A", "-f"]);
        git(dir, &["commit", "-q", "-m", "zmiana"]);
        git(dir, &["rev-parse", "HEAD"])
    }

    #[test]
    fn links_submodules_hidden_names_and_git_settings_are_refused() {
        let (dir, repo, first) = repo();
        let top = dir.path();
        std::os::unix::fs::symlink("../../var/site.sqlite3", top.join("content/blog/leak.svg"))
            .expect("link");
        std::os::unix::fs::symlink("/etc/passwd", top.join("content/passwd.gif")).expect("link");
        std::os::unix::fs::symlink("/etc", top.join("content/etc")).expect("link");
        std::fs::write(top.join("content/.cennik.yaml.saving"), "x").expect("write");
        std::fs::write(top.join("content/.gitattributes"), "* filter=x").expect("write");
        std::fs::write(top.join(".gitattributes"), "* filter=x").expect("write");
        std::fs::write(top.join("content/blog/b.md"), "dobry").expect("write");
        let head = commit(top);
        let problems = vet(&repo, &first, &head).expect_err("refused");
        let joined = problems.join("\n");
        for (path, words) in [
            ("content/blog/leak.svg", "dowiązanie symboliczne"),
            ("content/passwd.gif", "dowiązanie symboliczne"),
            ("content/etc", "dowiązanie symboliczne"),
            ("content/.cennik.yaml.saving", "ukryta nazwa"),
            ("content/.gitattributes", "ustawienia gita"),
            (".gitattributes", "ustawienia gita"),
        ] {
            assert!(
                problems
                    .iter()
                    .any(|p| p.starts_with(&format!("{path}: ")) && p.contains(words)),
                "{path}: {joined}"
            );
        }
        assert!(!joined.contains("content/blog/b.md"), "{joined}");
        assert_eq!(problems.len(), 6, "{joined}");
    }

    #[test]
    fn a_file_larger_than_the_site_takes_is_refused_from_its_header() {
        let (dir, repo, first) = repo();
        let top = dir.path();
        // A megabyte and a half of one byte repeated: a few kilobytes packed.
        std::fs::write(top.join("content/blog/duzy.md"), vec![b'a'; 1_500_000]).expect("write");
        std::fs::write(top.join("content/blog/maly.md"), "mały").expect("write");
        let head = commit(top);
        let problems = vet(&repo, &first, &head).expect_err("refused");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("content/blog/duzy.md: plik ma 1,4 MiB"),
            "{problems:?}"
        );
    }

    #[test]
    fn a_good_commit_and_a_removal_pass() {
        let (dir, repo, first) = repo();
        let top = dir.path();
        std::fs::remove_file(top.join("content/blog/a.md")).expect("remove");
        std::fs::write(top.join("content/blog/zazolc.md"), "tekst").expect("write");
        std::fs::write(top.join("content/STYLE.md"), "zasady").expect("write");
        std::fs::write(top.join("Notatki gabinetu.txt"), "poza treścią").expect("write");
        let head = commit(top);
        assert_eq!(vet(&repo, &first, &head), Ok(()));
    }

    #[test]
    fn names_that_are_no_lowercase_slugs_are_refused_inside_content() {
        let (dir, repo, first) = repo();
        let top = dir.path();
        std::fs::create_dir_all(top.join("content/images")).expect("mkdir");
        let names = [
            "a\"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.png",
            "q\" onmouseover=\"alert(1)\" x=\".png",
            "q autofocus tabindex=1 onfocus=alert(document.domain) x.svg",
            "Morze.JPG",
            "zażółć.jpg",
            "morze.o.swicie.jpg",
        ];
        for name in names {
            std::fs::write(top.join("content/images").join(name), "x").expect("write");
        }
        let head = commit(top);
        let problems = vet(&repo, &first, &head).expect_err("refused");
        assert_eq!(problems.len(), names.len(), "{problems:#?}");
        for name in names {
            assert!(
                problems.iter().any(|p| p.starts_with(&format!(
                    "content/images/{name}: nazwa „{name}” jest niedozwolona"
                ))),
                "{name}: {problems:#?}"
            );
        }
    }

    #[test]
    fn a_large_file_added_and_removed_again_is_refused_from_its_header() {
        let (dir, repo, first) = repo();
        let top = dir.path();
        let big = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(top.join("content/blog/duzy.md"))
            .expect("file");
        big.set_len(3 * 1024 * 1024).expect("size");
        commit(top);
        std::fs::remove_file(top.join("content/blog/duzy.md")).expect("remove");
        std::fs::write(top.join("content/blog/b.md"), "dobry").expect("write");
        let head = commit(top);
        let problems = vet(&repo, &first, &head).expect_err("refused");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("content/blog/duzy.md: plik ma 3,0 MiB")
                && problems[0].contains("choć późniejszy go usuwa"),
            "{problems:?}"
        );
    }
}
