//! The content's repository as the sidecar runs it (`GIT_REMOTE`): the `contentsync` crate
//! does the git work; here is the running site as the sync sees it ([`Synced`]: checks, the
//! build lock, the panel's side of a conflict, the audit log), and the commit of each panel
//! change.

use actix_web::web;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::changes::notify::{Notifier, Tellers};
use crate::config::Config;
use crate::db::now;
use crate::state::AppState;
use accounts::audit::Event;
pub use contentsync::{Conflict, GitSync, Refused, Status, Step, StepError};

/// Where the audit log says the sync's events came from.
const FROM_REPOSITORY: &str = "repozytorium";

/// Starts the sync thread, when `GIT_REMOTE` is set, and the thread that tells the forge
/// (`FORGE_KIND`) and the authors the verdict on each commit it checks.
pub fn spawn(state: web::Data<AppState>, config: &Config) {
    if let Some(git) = state.git.clone() {
        let notifier = Notifier::spawn(Tellers {
            forge: config.forge.clone(),
            outbox: Arc::clone(&state.contact.outbox),
            panel: format!("{}/", state.origins.admin),
            git: Arc::clone(&git),
        });
        if let Some(hosted) = &state.hosted {
            if let Some(url) = hosted.mirror.clone() {
                crate::changes::hosted::spawn_mirror(Arc::clone(&git), hosted.bare.clone(), url);
            }
        }
        contentsync::sync::spawn(git, Arc::new(Synced { state, notifier }));
    }
}

/// The running site, as the sync sees it.
struct Synced {
    state: web::Data<AppState>,
    notifier: Option<Notifier>,
}

impl contentsync::Site for Synced {
    fn content_dir(&self) -> PathBuf {
        self.state.site.project.content_dir.clone()
    }

    fn check(&self, dir: &Path) -> Result<(), Vec<String>> {
        check(&self.state, dir, prefix(&self.state))
    }

    fn lock(&self) -> Box<dyn contentsync::Build + '_> {
        Box::new(Locked {
            state: &self.state,
            builder: self.state.site.builder(),
        })
    }

    fn keep_panel_version(&self, conflict: &Conflict) {
        if let Some(git) = &self.state.git {
            keep_panel_version(&self.state, git, conflict);
        }
    }

    fn audit(&self, event: contentsync::Event, author: &str, detail: &str) {
        let event = match event {
            contentsync::Event::Applied => Event::GitApplied,
            contentsync::Event::Refused => Event::GitRefused,
            contentsync::Event::ForcePush => Event::GitForcePush,
        };
        self.state
            .auth
            .audit(event, author, FROM_REPOSITORY, detail);
    }

    fn checked(&self, verdict: &contentsync::Checked) {
        if let Some(notifier) = &self.notifier {
            notifier.checked(verdict);
        }
    }
}

/// The site's build under its lock.
struct Locked<'a> {
    state: &'a AppState,
    builder: std::sync::MutexGuard<'a, site::Builder>,
}

impl contentsync::Build for Locked<'_> {
    fn rebuild(&mut self, changed: &[PathBuf]) -> Result<(), Vec<String>> {
        let changes = content::load::Changes::Only(changed);
        match self.state.site.rebuild_with(&mut self.builder, changes) {
            Ok(_) => Ok(()),
            Err(e) => Err(e.polish(&self.state.site.project.content_dir, prefix(self.state))),
        }
    }

    fn render_back(&mut self, changed: &[PathBuf]) {
        if let Err(e) = self.builder.render_changed(changed) {
            tracing::error!(error = %e, "the site does not build after putting the files back");
        }
    }
}

/// Where `content/` is in the repository (`content/`): problems are named by the paths an
/// editor sees in a clone.
fn prefix(state: &AppState) -> &str {
    state
        .git
        .as_ref()
        .map_or("content/", |g| g.repo.prefix.as_str())
}

/// The checks of `make check` (`site check`): the content at `content_dir` renders with the
/// running templates and islands, or every problem in Polish at its repository path and line.
fn check(state: &AppState, content_dir: &Path, prefix: &str) -> Result<(), Vec<String>> {
    let project = site::Project {
        content_dir: content_dir.to_path_buf(),
        ..state.site.project.clone()
    };
    crate::changes::check::check_project(&project, prefix)
}

/// The editor's change to each document changed on both sides is a revision (after the
/// panel's own, which its save made), and the panel's version becomes the document's server
/// draft, to publish again, or edit, from the panel.
fn keep_panel_version(state: &AppState, git: &GitSync, c: &Conflict) {
    {
        let kept = state.db.insert_revision_as(
            &c.doc_id,
            &format!("repozytorium ({})", c.commit),
            (&c.panel_text, &c.editor_text),
            now(),
            crate::db::Action::Save,
            &format!("zmiana z repozytorium (commit {})", c.commit),
        );
        let drafted = kept.and_then(|()| match panel_draft(state, git, c) {
            Some(draft) => state.db.put_draft(&draft),
            None => Ok(()),
        });
        if let Err(e) = drafted.and_then(|()| state.db.put_conflict(c, now())) {
            tracing::error!(error = %e, doc = %c.doc_id, "the panel's version was not kept");
        }
    }
}

/// The panel's text of a conflict as the document's draft, made from the repository's
/// current version of it.
fn panel_draft(state: &AppState, git: &GitSync, c: &Conflict) -> Option<crate::db::Draft> {
    let id = content::DocId::parse(&c.doc_id)?;
    if c.panel_text.is_empty() {
        return None;
    }
    // A folder of its own with a random name, made new (never one that was there).
    let data_dir = git.check_dir.parent()?;
    let scratch = tempfile::Builder::new()
        .prefix(".draft-")
        .tempdir_in(data_dir)
        .ok()?;
    let file = id.file(scratch.path());
    content::beneath::Root::new(scratch.path())
        .write_atomic(&file, c.panel_text.as_bytes())
        .ok()?;
    let panel = editing::Editor::new(scratch.path()).editable(&id, now());
    let panel = panel.ok()??;
    let current = state.site.editor.editable(&id, now()).ok()??;
    Some(crate::db::Draft {
        doc_id: c.doc_id.clone(),
        author: state.auth.admin_email.clone(),
        saved_at: now(),
        version: current.version,
        body: serde_json::json!({ "content": panel.content, "settings": panel.settings }),
    })
}
