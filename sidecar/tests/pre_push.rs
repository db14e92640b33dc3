//! The opt-in pre-push hook (`deploy/git/pre-push`, installed by `make hooks`) as an editor
//! meets it: a clone with the hook pushing to a bare remote. A broken commit is refused with
//! its problem at `content/…:line`; a good one goes through, whatever the working copy
//! holds; without a checker the push goes through with a plain warning.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `site` program the hook runs, as the workspace's test build makes it (`cargo test
/// --workspace --no-run`: in `make test` the build that made this test, so nothing is compiled;
/// `cargo build -p site` alone would resolve other features and compile the image codecs again).
fn site_program() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| common::repo_root().join("target"), PathBuf::from);
    let program = target.join("debug").join("site");
    let built = Command::new(env!("CARGO"))
        .args(["test", "-q", "--workspace", "--no-run", "--manifest-path"])
        .arg(common::repo_root().join("Cargo.toml"))
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the site program builds");
    program
}

fn git(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=Ewa Redaktorka",
            "-c",
            "user.email=ewa@example.pl",
        ])
        .args(["-c", "init.defaultBranch=main"]);
    command
}

fn ok(command: &mut Command) -> String {
    let out = command.output().expect("git runs");
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// An editor's clone (content, templates, the islands' build beside them) with the hook
/// installed, and its bare remote.
fn clone_with_hook(dir: &Path) -> (PathBuf, PathBuf) {
    let root = common::site_copy(dir);
    std::fs::write(root.join(".gitignore"), "/islands/build/\n/.cache/\n").expect("write");
    ok(git(&root).args(["init", "-q"]));
    ok(git(&root).args(["add", "."]));
    ok(git(&root).args(["commit", "-q", "-m", "Strona"]));
    let remote = dir.join("remote.git");
    ok(git(dir).args(["init", "-q", "--bare"]).arg(&remote));
    ok(git(&root)
        .arg("push")
        .arg("-q")
        .arg(&remote)
        .arg("HEAD:refs/heads/main"));
    let hooks = PathBuf::from(ok(git(&root).args(["rev-parse", "--git-path", "hooks"])));
    let hooks = root.join(hooks);
    std::fs::create_dir_all(&hooks).expect("mkdir");
    let hook = hooks.join("pre-push");
    std::fs::copy(common::repo_root().join("deploy/git/pre-push"), &hook).expect("install");
    (root, remote)
}

fn commit(root: &Path, file: &str, text: &str) {
    std::fs::write(root.join(file), text).expect("write");
    ok(git(root).args(["add", "--", file]));
    ok(git(root).args(["commit", "-q", "-m", &format!("Redakcja: {file}")]));
}

/// `git push` of HEAD to the remote's main, the hook running with `env`.
fn push(root: &Path, remote: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = git(root);
    command
        .arg("push")
        .arg(remote)
        .arg("HEAD:refs/heads/main")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("SITE_BIN");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("git push runs")
}

fn remote_head(remote: &Path) -> String {
    ok(git(remote).args(["rev-parse", "main"]))
}

const ARTICLE: &str = "---\ntitle: \"Spacer\"\ndescription: \"Krótki opis artykułu o spacerach i odpoczynku w Gdańsku.\"\nexcerpt: \"Spacer nad morzem pomaga odpocząć.\"\ndate: \"2025-08-01\"\nimage: \"las.svg\"\nimage_alt: \"Zielony las\"\nauthor: \"Magdalena Wiśniewska\"\n---\nSpacer nad morzem to prosty sposób na odpoczynek.\n";
const BROKEN: &str = "---\ntitle: \"Bez zamknięcia\ndate: 2025-13-45\n---\nTekst.\n";

#[test]
fn a_broken_commit_is_refused_with_its_line_and_a_good_one_goes_through() {
    let site = site_program();
    let site = site.to_string_lossy();
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, remote) = clone_with_hook(dir.path());
    let before = remote_head(&remote);

    commit(&root, "content/blog/zepsuty.md", BROKEN);
    let refused = push(&root, &remote, &[("SITE_BIN", &site)]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("błąd: content/blog/zepsuty.md:"),
        "the problem in Polish at the repository's path: {said}"
    );
    assert!(
        !said
            .lines()
            .any(|l| l.starts_with("error:") && !l.contains("failed to push")),
        "no English but git's own: {said}"
    );
    assert!(
        !said.contains("/pre-push."),
        "no temporary folder named: {said}"
    );
    assert!(said.contains("Wysyłanie wstrzymane"), "{said}");
    assert_eq!(remote_head(&remote), before, "nothing was pushed");

    // The fix is committed; a broken file only in the working copy is not what is pushed.
    std::fs::remove_file(root.join("content/blog/zepsuty.md")).expect("rm");
    ok(git(&root).args(["add", "-A"]));
    ok(git(&root).args(["commit", "-q", "-m", "Poprawka"]));
    commit(&root, "content/blog/spacer.md", ARTICLE);
    std::fs::write(root.join("content/blog/szkic.md"), BROKEN).expect("write");
    let accepted = push(&root, &remote, &[("SITE_BIN", &site)]);
    let said = String::from_utf8_lossy(&accepted.stderr);
    assert!(accepted.status.success(), "{said}");
    assert!(said.contains("treść sprawdzona: bez problemów"), "{said}");
    assert_eq!(
        remote_head(&remote),
        ok(git(&root).args(["rev-parse", "HEAD"]))
    );
}

#[test]
fn without_a_checker_the_push_goes_through_with_a_plain_warning() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, remote) = clone_with_hook(dir.path());
    commit(&root, "content/blog/zepsuty.md", BROKEN);
    // No SITE_BIN, no target/ in the clone, no cargo on the PATH.
    let pushed = push(&root, &remote, &[("PATH", "/usr/local/bin:/usr/bin:/bin")]);
    let said = String::from_utf8_lossy(&pushed.stderr);
    assert!(pushed.status.success(), "{said}");
    assert!(said.contains("nie ma programu site"), "{said}");
    assert!(said.contains("NIE zostały sprawdzone"), "{said}");
    assert_eq!(
        remote_head(&remote),
        ok(git(&root).args(["rev-parse", "HEAD"]))
    );

    // A named checker that is not there is said so, and the push is not blocked by it.
    commit(&root, "content/blog/spacer.md", ARTICLE);
    let pushed = push(&root, &remote, &[("SITE_BIN", "/nie/ma/site")]);
    let said = String::from_utf8_lossy(&pushed.stderr);
    assert!(pushed.status.success(), "{said}");
    assert!(said.contains("SITE_BIN=/nie/ma/site"), "{said}");
}
