//! The content's repository as the sidecar runs it (`GIT_REMOTE`): the `contentsync` crate
//! does the git work; here is the running site as the sync sees it ([`Synced`]: checks, the
//! build lock, the panel's side of a conflict, the audit log), and the commit of each panel
//! change.

use actix_web::web;
use std::path::PathBuf;
use std::sync::Arc;

use crate::audit::Git;
use crate::changes::hosted::Hosted;
use crate::changes::notify::{Notifier, Tellers};
use crate::changes::Pipeline;
use crate::config::Config;
use crate::inbox::outbox::Outbox;
pub use contentsync::{Conflict, GitSync, Refused, Status, Step, StepError};

/// Where the audit log says the sync's events came from.
const FROM_REPOSITORY: &str = "repozytorium";

/// What the sync works with beyond the pipeline: the hosted repository (`GIT_HOSTED`), the
/// outbox that tells the authors, and where the panel is.
pub struct Around {
    pub hosted: Option<web::Data<Hosted>>,
    pub outbox: Arc<Outbox>,
    /// The panel's origin (`ADMIN_ORIGIN`).
    pub panel: String,
}

/// Starts the sync thread, when `GIT_REMOTE` is set, and the thread that tells the forge
/// (`FORGE_KIND`) and the authors the verdict on each commit it checks.
pub fn spawn(pipeline: &Pipeline, around: Around, config: &Config) {
    if let Some(git) = pipeline.git.clone() {
        let notifier = Notifier::spawn(Tellers {
            forge: config.forge.clone(),
            outbox: around.outbox,
            panel: format!("{}/", around.panel),
            git: Arc::clone(&git),
        });
        let hosted = around.hosted;
        let state = pipeline.clone();
        let site: Arc<dyn contentsync::Site> = Arc::new(Synced { state, notifier });
        if let Some(hosted) = hosted {
            if let Some(url) = hosted.mirror.clone() {
                crate::changes::hosted::spawn_mirror(Arc::clone(&git), hosted.bare.clone(), url);
            }
            let listened = crate::changes::hosted::listen::spawn(
                Arc::clone(&git),
                Arc::clone(&site),
                &hosted.bare,
                &hosted.socket,
            );
            if let Err(e) = listened {
                tracing::error!(error = %e, "pushes to the hosted repository cannot be received");
            }
        }
        contentsync::sync::spawn(git, site);
    }
}

/// The running site, as the sync sees it.
struct Synced {
    state: Pipeline,
    notifier: Option<Notifier>,
}

impl contentsync::Site for Synced {
    fn content_dir(&self) -> PathBuf {
        self.state.site.project.content_dir.clone()
    }

    fn lock(&self) -> Box<dyn contentsync::Build + '_> {
        Box::new(Locked {
            state: &self.state,
            builder: self.state.site.builder(),
            rendered: None,
        })
    }

    fn keep_panel_version(&self, conflict: &Conflict) {
        if let Some(git) = &self.state.git {
            keep_panel_version(&self.state, git, conflict);
        }
    }

    fn audit(&self, event: contentsync::Event, author: &str, detail: &str) {
        let event = match event {
            contentsync::Event::Applied => Git::GitApplied,
            contentsync::Event::Refused => Git::GitRefused,
            contentsync::Event::ForcePush => Git::GitForcePush,
        };
        self.state
            .accounts
            .audit(event, author, FROM_REPOSITORY, detail);
    }

    fn checked(&self, verdict: &contentsync::Checked) {
        if let Some(notifier) = &self.notifier {
            notifier.checked(verdict);
        }
    }
}

/// The site's build under its lock, and what its last render made, until it is published.
struct Locked<'a> {
    state: &'a Pipeline,
    builder: std::sync::MutexGuard<'a, site::Builder>,
    rendered: Option<(site::Build, std::time::Instant)>,
}

impl contentsync::Build for Locked<'_> {
    fn render(&mut self, changed: &[PathBuf]) -> Result<(), Vec<String>> {
        let started = std::time::Instant::now();
        match self.builder.render_changed(changed) {
            Ok(build) => {
                self.rendered = Some((build, started));
                Ok(())
            }
            Err(e) => Err(e.polish(&self.state.site.project.content_dir, prefix(self.state))),
        }
    }

    fn publish(&mut self) -> Result<(), Vec<String>> {
        let Some((build, started)) = self.rendered.take() else {
            return Ok(());
        };
        match self
            .state
            .site
            .publish_with(&mut self.builder, &build, started)
        {
            Ok(_) => Ok(()),
            Err(e) => Err(e.polish(&self.state.site.project.content_dir, prefix(self.state))),
        }
    }

    fn render_back(&mut self, changed: &[PathBuf]) {
        self.rendered = None;
        if let Err(e) = self.builder.render_changed(changed) {
            tracing::error!(error = %e, "the site does not build after putting the files back");
        }
    }
}

/// Where `content/` is in the repository (`content/`): problems are named by the paths an
/// editor sees in a clone.
fn prefix(state: &Pipeline) -> &str {
    state
        .git
        .as_ref()
        .map_or("content/", |g| g.repo.prefix.as_str())
}

/// The editor's change to each document changed on both sides is a revision (after the
/// panel's own, which its save made), and the panel's version becomes the document's server
/// draft, to publish again, or edit, from the panel.
fn keep_panel_version(state: &Pipeline, git: &GitSync, c: &Conflict) {
    {
        let kept = state.db.insert_revision_as(
            &c.doc_id,
            &format!("repozytorium ({})", c.commit),
            (&c.panel_text, &c.editor_text),
            state.clock.now(),
            crate::db::Action::Save,
            &format!("zmiana z repozytorium (commit {})", c.commit),
        );
        let drafted = kept.and_then(|()| match panel_draft(state, git, c) {
            Some(draft) => state.db.put_draft(&draft),
            None => Ok(()),
        });
        if let Err(e) = drafted.and_then(|()| state.db.put_conflict(c, state.clock.now())) {
            tracing::error!(error = %e, doc = %c.doc_id, "the panel's version was not kept");
        }
    }
}

/// The panel's text of a conflict as the document's draft, made from the repository's
/// current version of it.
fn panel_draft(state: &Pipeline, git: &GitSync, c: &Conflict) -> Option<crate::db::Draft> {
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
    let panel = editing::Editor::new(scratch.path()).editable(&id, state.clock.now());
    let panel = panel.ok()??;
    let current = state.site.editor.editable(&id, state.clock.now()).ok()??;
    Some(crate::db::Draft {
        doc_id: c.doc_id.clone(),
        author: state.accounts.admin_email.clone(),
        saved_at: state.clock.now(),
        version: current.version,
        body: serde_json::json!({ "content": panel.content, "settings": panel.settings }),
    })
}
