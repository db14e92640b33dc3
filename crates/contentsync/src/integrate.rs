//! An editor's commit made `content/`'s, as the forge's sync and the hosted repository's
//! receive both do it: vetted from git's records, the panel's commits not yet on the branch
//! replayed on top of it (a file both changed merged paragraph by paragraph), then, under the
//! build lock, `content/` moved to the result and the changed files rendered — the check,
//! the very one `make check` runs, made once by the running site's own builder — and only
//! then published. A render that fails puts `content/` back where it was.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::status::{Conflict, Refused};
use crate::{Build, Checked, Event, GitSync, Site};

/// What to do with a paragraph both the panel and the editor changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Overlap {
    /// The editor's version is taken; the panel's is kept for the administrator (a forge:
    /// the push already happened there).
    EditorWins,
    /// The commit is refused, so the editor merges it himself (the hosted repository, which
    /// can still say no).
    Refuse,
}

/// What `content/` becomes with an editor's commit.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    /// The editor's commit.
    pub remote: String,
    /// `content/`'s commit it was made against.
    pub head: String,
    /// The editor's commit, or the panel's commits replayed on it.
    pub commit: String,
    /// Files outside `content/` it brings (they wait for a deploy).
    pub outside: Vec<String>,
    /// Documents whose same paragraph both sides changed (the editor's text was taken).
    pub conflicts: Vec<Conflict>,
}

pub(crate) fn short(commit: &str) -> String {
    commit.chars().take(10).collect()
}

/// The steps that take the panel's side of a paragraph both changed into the editor's clone.
pub(crate) fn pull_steps(branch: &str) -> String {
    format!("Pobierz je i połącz ze swoimi: git pull --rebase origin {branch}; jeśli git zatrzyma się na konflikcie, popraw oznaczone pliki, potem git add <plik> i git rebase --continue; na koniec git push origin HEAD:{branch}.")
}

/// Vets `remote` and makes the commit `content/` would become (the panel's commits since
/// `head` and `remote` parted, replayed on `remote`); the problems when it may not be taken.
pub(crate) fn prepare(
    git: &GitSync,
    head: &str,
    remote: &str,
    overlap: Overlap,
) -> Result<Result<Candidate, Vec<String>>, Error> {
    let repo = &git.repo;
    let base = repo.git(&["merge-base", head, remote])?;
    if let Err(problems) = crate::vet::vet(repo, &base, remote) {
        return Ok(Err(problems));
    }
    let theirs = repo.changed_files(&base, remote)?;
    let outside = theirs
        .iter()
        .filter(|f| !repo.in_content(f))
        .cloned()
        .collect();
    let mut candidate = Candidate {
        remote: remote.to_string(),
        head: head.to_string(),
        commit: remote.to_string(),
        outside,
        conflicts: Vec::new(),
    };
    if base == head {
        return Ok(Ok(candidate));
    }
    let ours = repo.changed_files(&base, head)?;
    let shared: Vec<String> = ours.into_iter().filter(|f| theirs.contains(f)).collect();
    let (merged, conflicted) = crate::merge::merge_shared(repo, &base, head, remote, &shared)?;
    if overlap == Overlap::Refuse && !conflicted.is_empty() {
        let files = conflicted.join(", ");
        return Ok(Err(vec![format!(
            "{files}: ten sam fragment zmieniono w międzyczasie w panelu strony, więc serwer nie połączy go sam. {}",
            pull_steps(&git.remote.branch)
        )]));
    }
    let tree = CheckTree::add(git, remote)?;
    candidate.commit = replay(git, &tree.path, &base, head, &shared, &merged)?;
    drop(tree);
    candidate.conflicts = conflicts(git, head, remote, &conflicted);
    Ok(Ok(candidate))
}

/// Why a candidate was not rendered.
pub(crate) enum NotStaged {
    /// The panel committed meanwhile: the candidate was made against an older `content/`.
    Moved,
    /// It does not build: every problem, in Polish at `content/…:line`.
    Problems(Vec<String>),
    Git(Error),
}

impl From<Error> for NotStaged {
    fn from(e: Error) -> Self {
        NotStaged::Git(e)
    }
}

/// Under the build lock: moves `content/` to the candidate and renders the files that
/// changed (nothing is published); the files, or why not (`content/` is then as it was).
pub(crate) fn stage(
    site: &dyn Site,
    git: &GitSync,
    build: &mut dyn Build,
    candidate: &Candidate,
) -> Result<Vec<PathBuf>, NotStaged> {
    let repo = &git.repo;
    if repo.commit_of("HEAD").as_deref() != Some(candidate.head.as_str()) {
        return Err(NotStaged::Moved);
    }
    let files = repo.changed_files(&candidate.head, &candidate.commit)?;
    let changed = content_paths(site, git, &files);
    repo.git(&["reset", "-q", "--keep", &candidate.commit])?;
    if let Err(problems) = build.render(&changed) {
        unstage(git, build, candidate, &changed);
        return Err(NotStaged::Problems(problems));
    }
    Ok(changed)
}

/// Puts `content/` back at the candidate's `head`, rendered so again.
pub(crate) fn unstage(git: &GitSync, build: &mut dyn Build, c: &Candidate, changed: &[PathBuf]) {
    if let Err(e) = git.repo.git(&["reset", "-q", "--keep", &c.head]) {
        tracing::error!(error = %e, "content/ could not be put back after a refused commit");
    }
    build.render_back(changed);
}

/// After the candidate was published: the branch's commit recorded, the panel's side of each
/// conflict kept, the status, the audit log and the author told.
pub(crate) fn published(site: &dyn Site, git: &GitSync, c: &Candidate, changed: usize) {
    let repo = &git.repo;
    if let Err(e) = repo.git(&["update-ref", &git.tracking(), &c.remote]) {
        tracing::error!(error = %e, "the published commit could not be recorded");
    }
    for conflict in &c.conflicts {
        site.keep_panel_version(conflict);
    }
    let left = repo.count_between(Some(&c.remote), "HEAD");
    {
        let mut status = git.status_mut();
        status.applied = Some(short(&c.remote));
        status.broken = None;
        needs_deploy(&mut status, git, &c.remote, &c.outside);
        status.unpushed = left;
        status.conflicts.extend(c.conflicts.iter().cloned());
    }
    if left > 0 {
        git.push_soon();
    }
    let files = content::polish::count(changed, content::polish::FILES);
    let detail = format!("{}: {files}", short(&c.remote));
    site.audit(Event::Applied, &repo.author_of(&c.remote), &detail);
    site.checked(&Checked {
        commit: c.remote.clone(),
        author: repo.author_of(&c.remote),
        email: repo.email_of(&c.remote),
        problems: Vec::new(),
    });
}

/// Reports the editor's commit `remote` as not applied (it does not build, or carries what
/// content may not): in the panel, and in the audit log with its first problem and who sent
/// it (`by`: the hosted repository's token, when it came that way).
pub(crate) fn not_applied(
    site: &dyn Site,
    git: &GitSync,
    remote: &str,
    problems: Vec<String>,
    by: Option<&str>,
) {
    let refused = Refused {
        commit: short(remote),
        author: git.repo.author_of(remote),
        problems,
    };
    let first = refused.problems.first().map_or("", String::as_str);
    let detail = match by {
        Some(token) => format!("{} (token „{token}”): {first}", refused.commit),
        None => format!("{}: {first}", refused.commit),
    };
    site.audit(Event::Refused, &refused.author, &detail);
    if by.is_some() {
        // A refused push to the hosted repository was told in the editor's terminal and
        // never reached the branch: nothing on it is broken, nobody else needs telling.
        return;
    }
    site.checked(&Checked {
        commit: remote.to_string(),
        author: refused.author.clone(),
        email: git.repo.email_of(remote),
        problems: refused.problems.clone(),
    });
    git.status_mut().broken = Some(refused);
}

/// Files outside `content/` the commit `remote` brought (code, templates, notes): they are
/// in the work tree now, but the running server takes them only when it is deployed again.
/// Each is named once, beside those still waiting from earlier commits.
fn needs_deploy(status: &mut crate::Status, git: &GitSync, remote: &str, outside: &[String]) {
    if outside.is_empty() {
        return;
    }
    tracing::warn!(commit = %short(remote), files = outside.len(), "an editor's commit changes files outside content/: they wait for a deploy");
    let waiting = status.needs_deploy.get_or_insert_with(|| Refused {
        commit: String::new(),
        author: String::new(),
        problems: Vec::new(),
    });
    waiting.commit = short(remote);
    waiting.author = git.repo.author_of(remote);
    for file in outside {
        let problem = format!("{file}: zmiana poza katalogiem content/ (kod, szablony, notatki) — wymaga wdrożenia: działający serwer użyje jej dopiero po wdrożeniu (deploy). Treść z tego commitu jest już na stronie.");
        if !waiting.problems.contains(&problem) {
            waiting.problems.push(problem);
        }
    }
}

/// The running site's paths of files changed in the repository.
fn content_paths(site: &dyn Site, git: &GitSync, files: &[String]) -> Vec<PathBuf> {
    let content_dir = site.content_dir();
    files
        .iter()
        .filter_map(|f| f.strip_prefix(&git.repo.prefix))
        .map(|f| content_dir.join(f))
        .collect()
}

/// A work tree of its own (`DATA_DIR/git-check`) at a commit, removed when dropped: where
/// the panel's commits are replayed on an editor's.
struct CheckTree<'a> {
    git: &'a GitSync,
    path: PathBuf,
}

impl<'a> CheckTree<'a> {
    fn add(git: &'a GitSync, commit: &str) -> Result<Self, Error> {
        let path = git.check_dir.clone();
        remove_tree(git, &path);
        let where_ = path.to_string_lossy();
        git.repo.git(&[
            "worktree", "add", "-q", "--detach", "--force", &where_, commit,
        ])?;
        Ok(CheckTree { git, path })
    }
}

fn remove_tree(git: &GitSync, path: &Path) {
    let _ = git
        .repo
        .git(&["worktree", "remove", "--force", &path.to_string_lossy()]);
    let _ = std::fs::remove_dir_all(path);
    let _ = git.repo.git(&["worktree", "prune"]);
}

impl Drop for CheckTree<'_> {
    fn drop(&mut self) {
        remove_tree(self.git, &self.path);
    }
}

/// Commits the panel's commits `base..head` again in `tree` (at the editor's commit), each
/// with its author and message, without the files in `shared` — but for those that
/// `merged`, whose merged text the last panel commit to change them carries; the last
/// commit made.
fn replay(
    git: &GitSync,
    tree: &Path,
    base: &str,
    head: &str,
    shared: &[String],
    merged: &[crate::merge::Merged],
) -> Result<String, Error> {
    let range = format!("{base}..{head}");
    let commits = git
        .repo
        .git(&["rev-list", "--reverse", "--no-merges", &range])?;
    let excluded: Vec<String> = shared.iter().map(|f| format!(":(exclude){f}")).collect();
    for commit in commits.lines() {
        let parent = format!("{commit}^");
        let mut args = vec![
            "diff",
            "--binary",
            "--no-renames",
            &parent,
            commit,
            "--",
            ".",
        ];
        args.extend(excluded.iter().map(String::as_str));
        let patch = git.repo.git(&args)?;
        if !patch.is_empty() {
            let patch = format!("{patch}\n");
            crate::repo::run_with_input(
                tree,
                &["apply", "--index", "--binary", "-"],
                Some(patch.as_bytes()),
            )?;
        }
        for m in merged.iter().filter(|m| m.last == commit) {
            content::beneath::Root::new(tree)
                .write_atomic(Path::new(&m.file), &m.text)
                .map_err(|e| Error::Git(format!("{}: {e}", m.file)))?;
            crate::repo::run(tree, &["add", "--", &m.file])?;
        }
        // Nothing of this commit is left (only files both sides changed into one paragraph).
        if crate::repo::run(tree, &["diff", "--cached", "--quiet"]).is_ok() {
            continue;
        }
        let email = git.repo.git(&["log", "-1", "--format=%ae", commit])?;
        let identity = format!("user.email={email}");
        crate::repo::run(
            tree,
            &[
                "-c",
                "user.name=Administrator",
                "-c",
                &identity,
                "commit",
                "-q",
                "-C",
                commit,
            ],
        )?;
    }
    crate::repo::run(tree, &["rev-parse", "HEAD"])
}

/// Both texts of each file both sides changed.
fn conflicts(git: &GitSync, head: &str, remote: &str, shared: &[String]) -> Vec<Conflict> {
    let text = |commit: &str, file: &str| {
        git.repo
            .git(&["show", &format!("{commit}:{file}")])
            .unwrap_or_default()
    };
    shared
        .iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(&git.repo.prefix)?;
            let doc_id = relative.strip_suffix(".md").unwrap_or(relative).to_string();
            Some(Conflict {
                doc_id,
                file: relative.to_string(),
                commit: short(remote),
                author: git.repo.author_of(remote),
                editor_text: text(remote, file),
                panel_text: text(head, file),
            })
        })
        .collect()
}
