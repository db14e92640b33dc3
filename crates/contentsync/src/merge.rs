//! Files both the panel and an editor changed since their common commit, merged three-way
//! against it with git's own merge (`git merge-file`), line by line: a paragraph changed on
//! one side only is taken from that side, so only paragraphs both changed are a conflict.

use std::process::Stdio;

use crate::error::Error;
use crate::Repo;

/// A file both sides changed that merged cleanly: its text, and the last panel commit that
/// changed it (where the merged text is committed when the panel's commits are replayed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub file: String,
    pub text: Vec<u8>,
    pub last: String,
}

/// Merges each of `shared` (repository paths) as the panel has it at `head` and the editor
/// at `remote`, against `base`: the clean merges, and the files whose changes overlap (or
/// that one side added, removed or made binary).
pub fn merge_shared(
    repo: &Repo,
    base: &str,
    head: &str,
    remote: &str,
    shared: &[String],
) -> Result<(Vec<Merged>, Vec<String>), Error> {
    let mut merged = Vec::new();
    let mut conflicted = Vec::new();
    for file in shared {
        let blob = |commit: &str| repo.commit_of_path(commit, file);
        let text = match (blob(head), blob(base), blob(remote)) {
            (Some(ours), Some(common), Some(theirs)) => merge_file(repo, &ours, &common, &theirs)?,
            _ => None,
        };
        match text {
            Some(text) => {
                let range = format!("{base}..{head}");
                let last = repo.git(&["rev-list", "-1", "--no-merges", &range, "--", file])?;
                merged.push(Merged {
                    file: file.clone(),
                    text,
                    last,
                });
            }
            None => conflicted.push(file.clone()),
        }
    }
    Ok((merged, conflicted))
}

/// `git merge-file` of three blobs: the merged text, or `None` when changes overlap.
fn merge_file(repo: &Repo, ours: &str, base: &str, theirs: &str) -> Result<Option<Vec<u8>>, Error> {
    let output = subprocess::git_without_filters(&repo.top)
        .args([
            "merge-file",
            "-p",
            "--object-id",
            "-L",
            "panel",
            "-L",
            "wspólna",
            "-L",
            "repozytorium",
        ])
        .args([ours, base, theirs])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Error::Git(format!("git merge-file: {e}")))?;
    match output.status.code() {
        Some(0) => Ok(Some(output.stdout)),
        // The number of conflicts.
        Some(n) if (1..128).contains(&n) => Ok(None),
        _ => {
            let said = String::from_utf8_lossy(&output.stderr);
            // Binary files cannot be merged by lines: a conflict, as two texts would be.
            match said.contains("binary") || said.contains("Cannot merge") {
                true => Ok(None),
                false => Err(Error::Git(format!("git merge-file: {}", said.trim()))),
            }
        }
    }
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

    const TEXT: &str =
        "---\ntitle: \"A\"\n---\nPierwszy akapit.\n\nDrugi akapit.\n\nTrzeci akapit.\n";

    /// A repository whose `content/blog/a.md` is changed by `panel` on one branch and by
    /// `editor` on another: the repository, the common commit, the panel's and the editor's.
    fn sides(panel: &str, editor: &str) -> (tempfile::TempDir, Repo, [String; 3]) {
        let dir = tempfile::tempdir().expect("temp dir");
        let top = dir.path();
        std::fs::create_dir_all(top.join("content/blog")).expect("mkdir");
        let file = top.join("content/blog/a.md");
        std::fs::write(&file, TEXT).expect("write");
        git(top, &["init", "-q"]);
        git(top, &["add", "."]);
        git(top, &["commit", "-q", "-m", "start"]);
        let base = git(top, &["rev-parse", "HEAD"]);
        std::fs::write(&file, panel).expect("write");
        git(top, &["commit", "-q", "-am", "panel"]);
        let head = git(top, &["rev-parse", "HEAD"]);
        git(top, &["checkout", "-q", &base]);
        std::fs::write(&file, editor).expect("write");
        git(top, &["commit", "-q", "-am", "editor"]);
        let remote = git(top, &["rev-parse", "HEAD"]);
        let repo = Repo::open(&top.join("content")).expect("repo");
        (dir, repo, [base, head, remote])
    }

    #[test]
    fn different_paragraphs_merge_and_the_same_paragraph_conflicts() {
        let panel = TEXT.replace("Pierwszy akapit.", "Pierwszy, z panelu.");
        let editor = TEXT.replace("Trzeci akapit.", "Trzeci, od redaktorki.");
        let (_dir, repo, [base, head, remote]) = sides(&panel, &editor);
        let shared = vec!["content/blog/a.md".to_string()];
        let (merged, conflicted) =
            merge_shared(&repo, &base, &head, &remote, &shared).expect("merges");
        assert!(conflicted.is_empty());
        assert_eq!(merged[0].last, head);
        assert_eq!(
            String::from_utf8_lossy(&merged[0].text),
            TEXT.replace("Pierwszy akapit.", "Pierwszy, z panelu.")
                .replace("Trzeci akapit.", "Trzeci, od redaktorki.")
        );

        let panel = TEXT.replace("Drugi akapit.", "Drugi, z panelu.");
        let editor = TEXT.replace("Drugi akapit.", "Drugi, od redaktorki.");
        let (_dir, repo, [base, head, remote]) = sides(&panel, &editor);
        let (merged, conflicted) =
            merge_shared(&repo, &base, &head, &remote, &shared).expect("merges");
        assert!(merged.is_empty());
        assert_eq!(conflicted, shared);
    }
}
