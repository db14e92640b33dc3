//! A push to the repository the site hosts (`GIT_HOSTED`), received by the branch's one
//! writer. git asks its pre-receive hook whether to take the push; the hook asks the server
//! ([`check`]), which — holding the branch and the build lock — vets the pushed commits,
//! puts the panel's commits not yet on the branch on top of them (paragraph by paragraph, or
//! refuses with the steps that merge them), renders the result with the running site's
//! builder and answers. Only after git moved the branch does its post-receive hook ask the
//! server to publish ([`moved`]); the editor's terminal then says the change is live. Nobody
//! else writes the branch or `content/` meanwhile, so nothing the hook said can be undone
//! by a panel save winning the branch.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::integrate::{self, short, NotStaged, Overlap};
use crate::receiving::{After, Staged};
use crate::{GitSync, Site};

/// What git names a missing commit in a hook's input.
const ZERO: &str = "0000000000000000000000000000000000000000";
/// Where a received commit is kept in `content/`'s repository.
const RECEIVED: &str = "refs/sidecar/received";
/// How long a checked push may take to move the branch before the server stops waiting
/// (git moves it milliseconds after the hook answered, or never).
const MOVE_WITHIN: Duration = Duration::from_secs(60);

/// What the editor reads when the change is live.
pub const LIVE: &str = "Zmiany sprawdzone i opublikowane: strona już je pokazuje.";

/// One `old new ref` line of a hook's input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Update {
    pub old: String,
    pub new: String,
    pub name: String,
}

impl Update {
    /// The lines git gives a hook on its standard input.
    pub fn parse(input: &str) -> Vec<Update> {
        input
            .lines()
            .filter_map(|line| {
                let mut words = line.split_whitespace();
                Some(Update {
                    old: words.next()?.to_string(),
                    new: words.next()?.to_string(),
                    name: words.next()?.to_string(),
                })
            })
            .collect()
    }
}

/// A push as its pre-receive hook tells it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Push {
    /// Which request brought it: the id the server gave the `git http-backend` it started.
    pub id: String,
    pub updates: Vec<Update>,
    /// Where git keeps the pushed objects until it takes the push (`GIT_OBJECT_DIRECTORY`
    /// and `GIT_ALTERNATE_OBJECT_DIRECTORIES` of the hook).
    pub objects: Option<PathBuf>,
    pub alternates: Option<String>,
    /// The name of the token it came with.
    pub pusher: String,
}

/// What the editor's terminal is told: whether the push is taken, and why not.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    pub taken: bool,
    pub lines: Vec<String>,
}

/// What a refusal starts with.
pub const REFUSED: &str = "Serwer nie przyjął zmian — strona się nie zmieniła.";

impl Verdict {
    /// A refusal for `problems`, each on its line; unless they say what to do themselves
    /// (fetch the newer branch, try again), how to go on.
    fn refused(problems: Vec<String>) -> Self {
        let said = |words: &str| problems.iter().any(|p| p.contains(words));
        let steps_given = said("git pull --rebase") || said("Spróbuj ponownie");
        let mut lines = vec![match steps_given {
            true => REFUSED.to_string(),
            false => format!("{REFUSED} Do poprawienia:"),
        }];
        lines.extend(problems.iter().map(|p| format!("  {p}")));
        if !steps_given {
            lines.push("Popraw, zatwierdź (git commit) i wyślij ponownie (git push).".into());
        }
        Verdict {
            taken: false,
            lines,
        }
    }
}

/// The hosted repository's bare folder and branch.
pub struct Hosted<'a> {
    pub bare: &'a Path,
}

impl GitSync {
    /// The post-receive hook of the push `id`: the branch moved. Waits until the change is
    /// published and returns what to tell the editor.
    pub fn moved(&self, id: &str) -> Vec<String> {
        self.receiving.happened(id, After::Moved);
        let until = Instant::now() + MOVE_WITHIN;
        let mut staged = self.receiving.lock();
        loop {
            match staged.as_mut() {
                Some(s) if s.id == id => {
                    if let Some(told) = s.told.clone() {
                        s.read = true;
                        self.receiving.changed.notify_all();
                        return told;
                    }
                }
                // Not staged here (it was published already, or never checked): the sync
                // takes it as it takes any commit on the branch.
                _ => {
                    drop(staged);
                    self.fetch_soon();
                    return Vec::new();
                }
            }
            match self.receiving.wait(staged, until) {
                Some(again) => staged = again,
                None => return Vec::new(),
            }
        }
    }

    /// The request that brought the push `id` ended (git's program exited).
    pub fn receive_ended(&self, id: &str) {
        self.receiving.happened(id, After::Ended);
    }
}

/// The pre-receive hook's question: may `push` be taken? `answer` is told the verdict; a
/// push that may be waits here (holding the branch and the build) until git moved the
/// branch, then is published and its post-receive hook told so.
pub fn check(
    site: &dyn Site,
    git: &GitSync,
    hosted: &Hosted<'_>,
    push: &Push,
    answer: impl FnOnce(Verdict),
) {
    let _writer = git.writer();
    git.status_mut().receiving = true;
    let mut build = site.lock();
    let started = Instant::now();
    let staged = stage(site, git, build.as_mut(), hosted, push);
    let (update, candidate, changed) = match staged {
        Ok(staged) => staged,
        Err(verdict) => {
            git.status_mut().receiving = false;
            drop(build);
            answer(verdict);
            // The panel's commits the push was refused for go to the branch now, so the
            // editor's `git pull` brings them.
            git.push_soon();
            return;
        }
    };
    git.receiving.set(Some(Staged {
        id: push.id.clone(),
        after: None,
        told: None,
        read: false,
    }));
    answer(Verdict {
        taken: true,
        lines: Vec::new(),
    });
    let after = git
        .receiving
        .wait_after(&push.id, Instant::now() + MOVE_WITHIN);
    let branch = format!("refs/heads/{}", git.remote.branch);
    let moved = crate::repo::run(hosted.bare, &["rev-parse", "-q", "--verify", &branch]).ok()
        == Some(update.new.clone());
    let told = if !moved {
        tracing::warn!(commit = %short(&update.new), ?after, "a checked push did not move the branch: content/ put back");
        integrate::unstage(git, build.as_mut(), &candidate, &changed);
        Vec::new()
    } else {
        match build.publish() {
            Ok(()) => {
                drop(build);
                integrate::published(site, git, &candidate, changed.len());
                tracing::info!(commit = %short(&update.new), files = changed.len(), ms = started.elapsed().as_millis() as u64, "a push to the hosted repository was checked and published");
                vec![LIVE.to_string()]
            }
            Err(problems) => {
                integrate::unstage(git, build.as_mut(), &candidate, &changed);
                drop(build);
                let told = not_live(&problems);
                integrate::not_applied(site, git, &update.new, problems, None);
                told
            }
        }
    };
    git.status_mut().receiving = false;
    let mut staged = git.receiving.lock();
    if let Some(s) = staged.as_mut().filter(|s| s.id == push.id) {
        s.told = Some(told);
    }
    git.receiving.changed.notify_all();
    // The post-receive hook, when it came, takes what it tells before the push is forgotten.
    let until = Instant::now() + Duration::from_secs(5);
    while after == Some(After::Moved) && staged.as_ref().is_some_and(|s| !s.read) {
        match git.receiving.wait(staged, until) {
            Some(again) => staged = again,
            None => {
                staged = git.receiving.lock();
                break;
            }
        }
    }
    *staged = None;
}

/// What the editor is told when his change reached the branch but could not be published.
fn not_live(problems: &[String]) -> Vec<String> {
    let mut lines = vec![
        "Zmiany są w repozytorium, ale strona ich jeszcze nie pokazuje: nie udało się ich opublikować. Administrator widzi powód w panelu:".to_string(),
    ];
    lines.extend(problems.iter().map(|p| format!("  {p}")));
    lines
}

type Staging = (Update, integrate::Candidate, Vec<PathBuf>);

/// Everything that decides whether the push may be taken, under the branch and the build:
/// the update, what `content/` became and the files rendered; or the refusal, audited.
fn stage(
    site: &dyn Site,
    git: &GitSync,
    build: &mut dyn crate::Build,
    hosted: &Hosted<'_>,
    push: &Push,
) -> Result<Staging, Verdict> {
    let refuse = |commit: &str, problems: Vec<String>| {
        if !commit.is_empty() && commit != ZERO {
            integrate::not_applied(site, git, commit, problems.clone(), Some(&push.pusher));
        }
        Verdict::refused(problems)
    };
    let [update] = push.updates.as_slice() else {
        let branch = &git.remote.branch;
        return Err(refuse(
            "",
            vec![format!(
                "Wyślij jedną gałąź naraz: git push origin HEAD:{branch}."
            )],
        ));
    };
    if let Err(problem) = allowed(git, hosted, update) {
        return Err(refuse(&update.new, vec![problem]));
    }
    if let Err(e) = transfer(git, hosted, push, update) {
        tracing::error!(error = %e, "the pushed commits could not be read");
        return Err(refuse(
            "",
            vec![format!(
                "Serwer nie odczytał wysłanych zmian ({e}). Spróbuj ponownie za chwilę."
            )],
        ));
    }
    let repo = &git.repo;
    if !repo.is_ancestor(&update.old, &update.new) {
        return Err(refuse(&update.new, vec![behind(&git.remote.branch)]));
    }
    let outside: Vec<String> = repo
        .changed_files(&update.old, &update.new)
        .unwrap_or_default()
        .into_iter()
        .filter(|f| !repo.in_content(f))
        .map(|f| format!("{f}: plik poza katalogiem {}: przez git strony przyjmowana jest tylko treść (kod i szablony wdraża administrator).", repo.prefix))
        .collect();
    if !outside.is_empty() {
        return Err(refuse(&update.new, outside));
    }
    let failed = |e: Error| {
        tracing::error!(error = %e, "a push could not be checked");
        Verdict::refused(vec![format!(
            "Serwer nie zdołał sprawdzić zmian ({e}). Spróbuj ponownie za chwilę."
        )])
    };
    let head = repo
        .commit_of("HEAD")
        .ok_or_else(|| failed(Error::Git("content/ has no commit".into())))?;
    let candidate = match integrate::prepare(git, &head, &update.new, Overlap::Refuse) {
        Ok(Ok(candidate)) => candidate,
        Ok(Err(problems)) => return Err(refuse(&update.new, problems)),
        Err(e) => return Err(failed(e)),
    };
    match integrate::stage(site, git, build, &candidate) {
        Ok(changed) => Ok((update.clone(), candidate, changed)),
        Err(NotStaged::Problems(problems)) => Err(refuse(&update.new, problems)),
        Err(NotStaged::Moved) => Err(failed(Error::Git("content/ moved".into()))),
        Err(NotStaged::Git(e)) => Err(failed(e)),
    }
}

/// The refusal of a push made on an older branch than the server's.
fn behind(branch: &str) -> String {
    format!(
        "Ta zmiana nie zawiera najnowszej wersji gałęzi {branch}: w międzyczasie ktoś inny zapisał zmiany (w panelu strony albo przez git). Nic nie zostało nadpisane. {}",
        integrate::pull_steps(branch)
    )
}

/// Whether `update` may move the branch at all: only the branch, only forward from where
/// it is now.
fn allowed(git: &GitSync, hosted: &Hosted<'_>, update: &Update) -> Result<(), String> {
    let branch = &git.remote.branch;
    if update.name != format!("refs/heads/{branch}") {
        return Err(format!(
            "{}: serwer przyjmuje tylko gałąź {branch} (wyślij: git push origin HEAD:{branch}).",
            update.name
        ));
    }
    if update.new == ZERO {
        return Err(format!("Gałęzi {branch} nie można usunąć."));
    }
    if update.old == ZERO {
        return Err(format!("Gałąź {branch} nie istnieje jeszcze na serwerze: serwer tworzy ją sam przy starcie. Spróbuj ponownie za chwilę."));
    }
    let now = crate::repo::run(hosted.bare, &["rev-parse", "-q", "--verify", &update.name]);
    if now.ok().as_deref() != Some(update.old.as_str()) {
        return Err(behind(branch));
    }
    Ok(())
}

/// Copies the pushed commits from git's quarantine into `content/`'s repository: a pack of
/// what `new` has beyond `old` (everything, when `content/` lacks `old`), made in the hosted
/// repository with the hook's object folders and indexed in `content/`'s.
fn transfer(git: &GitSync, hosted: &Hosted<'_>, push: &Push, update: &Update) -> Result<(), Error> {
    let failed = |what: &str, e: &dyn std::fmt::Display| Error::Git(format!("{what}: {e}"));
    let mut wanted = format!("{}\n", update.new);
    if git.repo.commit_of(&update.old).is_some() {
        wanted.push_str(&format!("^{}\n", update.old));
    }
    let mut pack = subprocess::git_without_filters(hosted.bare);
    if let Some(objects) = &push.objects {
        if !objects.starts_with(hosted.bare) {
            return Err(Error::Git(
                "the pushed objects are outside the repository".into(),
            ));
        }
        pack.env("GIT_OBJECT_DIRECTORY", objects);
    }
    if let Some(alternates) = &push.alternates {
        pack.env("GIT_ALTERNATE_OBJECT_DIRECTORIES", alternates);
    }
    let mut packer = pack
        .args(["pack-objects", "--revs", "--stdout", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed("git pack-objects", &e))?;
    if let Some(mut stdin) = packer.stdin.take() {
        use std::io::Write;
        stdin
            .write_all(wanted.as_bytes())
            .map_err(|e| failed("git pack-objects", &e))?;
    }
    let pack_out = packer
        .stdout
        .take()
        .ok_or_else(|| Error::Git("git pack-objects: no output".into()))?;
    let indexed = subprocess::git_without_filters(&git.repo.top)
        .args(["index-pack", "--stdin", "--fix-thin"])
        .stdin(pack_out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| failed("git index-pack", &e))?;
    let mut said = String::new();
    if let Some(mut stderr) = packer.stderr.take() {
        let _ = stderr.read_to_string(&mut said);
    }
    let packed = packer.wait().map_err(|e| failed("git pack-objects", &e))?;
    if !packed.success() {
        return Err(failed("git pack-objects", &said.trim()));
    }
    if !indexed.status.success() {
        let said = String::from_utf8_lossy(&indexed.stderr);
        return Err(failed("git index-pack", &said.trim()));
    }
    git.repo.git(&["update-ref", RECEIVED, &update.new])?;
    Ok(())
}
