//! The one thread that talks to the remote: it pushes the panel's commits (retried with
//! back-off, never in a request) and brings editors' commits in — fetched, vetted, rendered
//! by the running site's builder with the checks of `make check` (`integrate`), and only
//! then published. It writes the branch only as its one writer ([`GitSync::writer`]), which
//! the hosted repository's receive of a push holds too.

use std::time::{Duration, Instant};

use std::sync::Arc;

use crate::error::Error;
use crate::integrate::{self, short, NotStaged, Overlap};
use crate::repo::without_credentials;
use crate::status::{Refused, Step};
use crate::{Event, GitSync, Site};

/// The first retry of a failed push waits this long; each next one twice as long.
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LONGEST_RETRY: Duration = Duration::from_secs(30);
/// Where a fetch puts the remote branch's commit before it is looked at.
const FETCHED: &str = "refs/sidecar/fetched";

/// Starts the sync thread of `git`, applying editors' commits to `site`.
pub fn spawn(git: Arc<GitSync>, site: Arc<dyn Site>) {
    let started = std::thread::Builder::new()
        .name("git-sync".into())
        .spawn(move || run(site.as_ref(), &git));
    if let Err(e) = started {
        tracing::error!(error = %e, "the git sync thread did not start");
    }
}

fn run(site: &dyn Site, git: &GitSync) {
    let _ = git.repo.git(&["worktree", "prune"]);
    let poll = (git.remote.poll_seconds > 0).then(|| Duration::from_secs(git.remote.poll_seconds));
    let mut next_poll = poll.map(|p| Instant::now() + p);
    let mut retry_at: Option<Instant> = None;
    let mut failures = 0_u32;
    loop {
        let until = [next_poll, retry_at].into_iter().flatten().min();
        let wanted = git.wait(until);
        let _writer = git.writer();
        let started = Instant::now();
        if wanted.fetch || next_poll.is_some_and(|t| t <= started) {
            next_poll = poll.map(|p| started + p);
            pull(site, git);
        }
        if unpushed(git) == 0 {
            // Nothing waits to be pushed: an earlier push error says nothing any more.
            git.status_mut().succeed(Step::Push);
            continue;
        }
        if retry_at.is_some_and(|t| t > Instant::now()) {
            continue;
        }
        match push(git) {
            Ok(()) => {
                failures = 0;
                retry_at = None;
                // The remote answers again: a fetch that failed meanwhile is tried at once.
                let stale = git
                    .status_mut()
                    .errors
                    .iter()
                    .any(|e| matches!(e.step, Step::Fetch | Step::Apply));
                if stale {
                    git.fetch_soon();
                }
            }
            Err(e) => {
                failed(git, Step::Push, &e);
                let wait = FIRST_RETRY.saturating_mul(1 << failures.min(10));
                failures += 1;
                retry_at = Some(Instant::now() + wait.min(LONGEST_RETRY));
            }
        }
    }
}

/// What the panel says before git's words when `step` fails.
fn what_failed(step: Step) -> &'static str {
    match step {
        Step::Fetch => "Nie udało się pobrać zmian z repozytorium",
        Step::Apply => "Nie udało się zastosować zmian z repozytorium",
        Step::Push => "Nie udało się wysłać zmian do repozytorium",
        Step::Notify => "Nie udało się powiadomić o wyniku sprawdzenia commitu",
        Step::Mirror => "Nie udało się skopiować repozytorium na serwer zapasowy",
    }
}

/// Records that `step` failed with `e`: logged, and shown in the status until it next works.
pub fn failed(git: &GitSync, step: Step, e: &Error) {
    let what = what_failed(step);
    tracing::warn!(error = %without_credentials(&e.to_string()), "{what}");
    let said = e.to_string();
    let first = said.lines().next().unwrap_or_default();
    // `git push in /srv/site: fatal: …`: what git said; when its first line only names the
    // remote (`To https://…`), the line that says what went wrong.
    let first = first.split_once(": ").map_or(first, |(_, said)| said);
    let last = said
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("fatal:") || l.starts_with("error:") || l.starts_with("! ["))
        .filter(|_| !first.starts_with("fatal:") && !first.starts_with("error:"))
        .unwrap_or(first);
    let message = format!("{what}: {}", without_credentials(last));
    git.status_mut().fail(step, message, git.now());
}

fn tracking(git: &GitSync) -> String {
    git.tracking()
}

/// Counts the commits the remote lacks (as far as the last fetch or push knows).
fn unpushed(git: &GitSync) -> usize {
    let known = git.repo.commit_of(&tracking(git));
    let count = match &known {
        Some(known) => git.repo.count_between(Some(known), "HEAD"),
        None => git.status_mut().unpushed,
    };
    git.status_mut().unpushed = count;
    count
}

/// Pushes HEAD to the branch, never forced; a refusal because the remote moved asks for a
/// fetch (which puts the panel's commits on top of the editors').
fn push(git: &GitSync) -> Result<(), Error> {
    let head = git
        .repo
        .commit_of("HEAD")
        .ok_or_else(|| Error::Git("the repository has no commit".into()))?;
    let target = format!("{head}:refs/heads/{}", git.remote.branch);
    let started = Instant::now();
    if let Err(e) = git.repo.git(&["push", "-q", &git.remote.url, &target]) {
        let said = e.to_string();
        if ["rejected", "non-fast-forward", "fetch first"]
            .iter()
            .any(|w| said.contains(w))
        {
            git.fetch_soon();
        }
        return Err(e);
    }
    git.repo.git(&["update-ref", &tracking(git), &head])?;
    let left = git.repo.count_between(Some(&head), "HEAD");
    let mut status = git.status_mut();
    status.unpushed = left;
    status.pushed_at = Some(git.now());
    status.succeed(Step::Push);
    tracing::info!(commit = %short(&head), ms = started.elapsed().as_millis() as u64, "pushed to the remote");
    Ok(())
}

/// Fetches the branch and applies what is new on it, if it may be; each step's error, or
/// its success, in the status.
fn pull(site: &dyn Site, git: &GitSync) {
    let fetched = fetch(git);
    let outcome = match fetched {
        Ok(remote) => {
            git.status_mut().succeed(Step::Fetch);
            let Some(remote) = remote else { return };
            (Step::Apply, take(site, git, &remote))
        }
        Err(e) => (Step::Fetch, Err(e)),
    };
    match outcome {
        (step, Ok(())) => git.status_mut().succeed(step),
        (step, Err(e)) => failed(git, step, &e),
    }
}

/// Fetches the branch: the commit it names, or `None` when the remote is empty (the first
/// push makes the branch).
fn fetch(git: &GitSync) -> Result<Option<String>, Error> {
    let repo = &git.repo;
    let refspec = format!("+refs/heads/{}:{FETCHED}", git.remote.branch);
    git.status_mut().fetches += 1;
    match repo.git(&[
        "fetch",
        "-q",
        "--no-tags",
        "--no-recurse-submodules",
        &git.remote.url,
        &refspec,
    ]) {
        Err(e) if e.to_string().contains("couldn't find remote ref") => return Ok(None),
        other => other?,
    };
    repo.commit_of(FETCHED)
        .map(Some)
        .ok_or_else(|| Error::Git("the fetched branch names no commit".into()))
}

/// Applies the fetched commit `remote` if it is new and may be.
fn take(site: &dyn Site, git: &GitSync, remote: &str) -> Result<(), Error> {
    let repo = &git.repo;
    let remote = remote.to_string();
    let tracking = tracking(git);
    let known = repo.commit_of(&tracking);
    if known.as_deref() == Some(remote.as_str()) {
        // The branch is back where the server left it (a force-push undone).
        git.status_mut().force_push = None;
        return Ok(());
    }
    if let Some(known) = known.filter(|k| !repo.is_ancestor(k, &remote)) {
        if git.status().force_push.is_none() {
            let detail = format!("{} → {}", short(&known), short(&remote));
            site.audit(Event::ForcePush, &repo.author_of(&remote), &detail);
        }
        let told = git
            .status()
            .force_push
            .is_some_and(|r| r.commit == short(&remote));
        refuse_force_push(git, &known, &remote);
        if !told {
            // The editor hears of it where he works, as of a commit that does not build.
            let problems = git.status().force_push.map(|r| r.problems);
            site.checked(&crate::Checked {
                commit: remote.clone(),
                author: repo.author_of(&remote),
                email: repo.email_of(&remote),
                problems: problems.unwrap_or_default(),
            });
        }
        return Ok(());
    }
    git.status_mut().force_push = None;
    let head = repo
        .commit_of("HEAD")
        .ok_or_else(|| Error::Git("the repository has no commit".into()))?;
    if repo.is_ancestor(&remote, &head) {
        repo.git(&["update-ref", &tracking, &remote])?;
        return Ok(());
    }
    let seen = git
        .status()
        .broken
        .is_some_and(|r| r.commit == short(&remote));
    if seen {
        return Ok(());
    }
    apply(site, git, &head, &remote)
}

fn refuse_force_push(git: &GitSync, known: &str, remote: &str) {
    let problem = format!(
        "Gałąź {branch} w repozytorium została nadpisana (force-push): nowa wersja {new} nie zawiera zmian {old}, które serwer już opublikował. Serwer nie przyjmie jej, dopóki historia nie zostanie przywrócona (git push bez --force, z zachowaniem commitu {old}).",
        branch = git.remote.branch,
        new = short(remote),
        old = short(known),
    );
    tracing::warn!(old = %short(known), new = %short(remote), "a force-push to the branch was refused");
    git.status_mut().force_push = Some(Refused {
        commit: short(remote),
        author: git.repo.author_of(remote),
        problems: vec![problem],
    });
}

/// Puts the panel's commits since `head` and `remote` parted on top of `remote` (a file both
/// changed merged three-way, paragraph by paragraph; where both changed one paragraph the
/// editor's version wins and the panel's is kept for the administrator), renders the result
/// with the running site's builder and only if it builds publishes it.
fn apply(site: &dyn Site, git: &GitSync, head: &str, remote: &str) -> Result<(), Error> {
    let started = Instant::now();
    let candidate = match integrate::prepare(git, head, remote, Overlap::EditorWins)? {
        Ok(candidate) => candidate,
        Err(problems) => {
            tracing::warn!(commit = %short(remote), problems = problems.len(), "an editor's commit carries what content may not: refused");
            integrate::not_applied(site, git, remote, problems, None);
            return Ok(());
        }
    };
    let mut build = site.lock();
    let changed = match integrate::stage(site, git, build.as_mut(), &candidate) {
        Ok(changed) => changed,
        Err(NotStaged::Moved) => {
            // The panel committed meanwhile: start again from its new commit.
            git.fetch_soon();
            git.repo.git(&["update-ref", "-d", FETCHED])?;
            return Ok(());
        }
        Err(NotStaged::Problems(problems)) => {
            tracing::warn!(commit = %short(remote), problems = problems.len(), "an editor's commit does not build: not published");
            integrate::not_applied(site, git, remote, problems, None);
            return Ok(());
        }
        Err(NotStaged::Git(e)) => return Err(e),
    };
    if let Err(problems) = build.publish() {
        integrate::unstage(git, build.as_mut(), &candidate, &changed);
        integrate::not_applied(site, git, remote, problems, None);
        return Ok(());
    }
    drop(build);
    integrate::published(site, git, &candidate, changed.len());
    tracing::info!(commit = %short(remote), files = changed.len(), ms = started.elapsed().as_millis() as u64, "an editor's commit was applied and published");
    Ok(())
}
