//! Child processes — node, git, and the operator's `PUBLISH_CMD` and `PURGE_CMD` — start
//! from an empty environment with only what they need put back: the search path, the home
//! folder, the locale, the time zone and the temporary folder, plus the names a caller
//! allows. Nothing else of this process's environment (a cloud token, a secret set by an
//! operator, a `GIT_*` variable) reaches a child that was not meant to have it.
//!
//! git runs with hooks, fsmonitor, signing programs and filter drivers switched off on its
//! command line, which overrides every configuration file: a `.git/config` or hook planted
//! in `content/` (a restored backup, a pushed commit) cannot run a program.
//!
//! A crate of its own, using only the standard library: the generator (node, git dates), the
//! content's repository (`contentsync`) and the sidecar (publish, backup) all start children,
//! and none of them should have to compile the others for it.

use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::Command;

/// What every child gets from this process's environment, when it is set.
pub const BASE_ENVIRONMENT: [&str; 11] = [
    "PATH",
    "HOME",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TZ",
    "TMPDIR",
    "USER",
    "LOGNAME",
];

/// Whether `name` is one of `allowed`: an exact name, or a prefix ending in `*`
/// (`RCLONE_CONFIG_*`).
pub fn allowed(name: &str, allowed: &[impl AsRef<str>]) -> bool {
    allowed.iter().any(|pattern| {
        let pattern = pattern.as_ref();
        match pattern.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == pattern,
        }
    })
}

/// The part of `environment` a child may see: the base names and `extra`.
pub fn child_environment(
    environment: impl IntoIterator<Item = (OsString, OsString)>,
    extra: &[impl AsRef<str>],
) -> Vec<(OsString, OsString)> {
    environment
        .into_iter()
        .filter(|(name, _)| {
            name.to_str()
                .is_some_and(|n| allowed(n, &BASE_ENVIRONMENT) || allowed(n, extra))
        })
        .collect()
}

/// `program` with the base environment of this process and the names of `extra`.
pub fn command_with(program: impl AsRef<OsStr>, extra: &[impl AsRef<str>]) -> Command {
    let environment = child_environment(std::env::vars_os(), extra);
    let path = environment
        .iter()
        .find(|(name, _)| name == "PATH")
        .map(|(_, value)| value.as_os_str());
    let mut command = Command::new(found_on(program.as_ref(), path));
    command.env_clear().envs(environment);
    command
}

/// A bare program name (`git`, `sh`, `node`) as the child's search path finds it, an
/// absolute path; anything else, or a name found nowhere, as given.
///
/// The standard library starts a child with `posix_spawn` (no copy of this process's memory
/// map) unless the child's PATH was set and the program is a bare name; then it forks, and a
/// fork of a server holding a site in memory copies its page tables on every git or publish
/// command. Found here, the program is a path and the child is spawned.
fn found_on(program: &OsStr, path: Option<&OsStr>) -> OsString {
    let bare = !program.is_empty() && !program.as_encoded_bytes().contains(&b'/');
    let found = path.filter(|_| bare).and_then(|path| {
        std::env::split_paths(path)
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(program))
            .find(|candidate| executable(candidate))
    });
    found.map_or_else(|| program.to_os_string(), |p| p.into_os_string())
}

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `program` with the base environment of this process only.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    command_with(program, &[] as &[&str])
}

/// Settings given to every git on its command line (they win over every file): no hook, no
/// fsmonitor program, no signing program, and no symbolic link ever made by a checkout (a
/// link in a commit becomes a plain file holding its target's name).
pub const GIT_SAFETY: [&str; 6] = [
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
    "core.sshCommand=false",
    "core.symlinks=false",
];

/// What a pre-receive hook's git is told by `git receive-pack` about the pushed objects,
/// kept apart until the push is accepted: a git run from the hook needs them to see the
/// push. Never set in the server's own environment.
pub const GIT_QUARANTINE: [&str; 3] = [
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
];

/// git in `dir`, with [`GIT_SAFETY`] and the base environment (and [`GIT_QUARANTINE`]).
pub fn git(dir: &Path) -> Command {
    let mut command = command_with("git", &GIT_QUARANTINE);
    command.arg("-C").arg(dir);
    for setting in GIT_SAFETY {
        command.arg("-c").arg(setting);
    }
    command
}

/// git in `dir` for commands that read or write file contents (`add`, `commit`): as [`git`],
/// with every filter driver the repository's configuration names emptied, so that neither
/// a `clean` nor a `process` program runs. Reading the configuration runs nothing.
pub fn git_without_filters(dir: &Path) -> Command {
    let names = git(dir)
        .args(["config", "--name-only", "--get-regexp", r"^filter\."])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let mut command = git(dir);
    for driver in filter_drivers(&names) {
        for (key, value) in [
            ("clean", ""),
            ("smudge", ""),
            ("process", ""),
            ("required", "false"),
        ] {
            command
                .arg("-c")
                .arg(format!("filter.{driver}.{key}={value}"));
        }
    }
    command
}

/// The driver names of `filter.NAME.KEY` lines (a name may hold dots).
fn filter_drivers(names: &str) -> std::collections::BTreeSet<&str> {
    names
        .lines()
        .filter_map(|l| l.trim().strip_prefix("filter."))
        .filter_map(|rest| rest.rsplit_once('.').map(|(name, _)| name))
        .filter(|name| !name.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_base_and_allowed_names_reach_a_child() {
        let env = [
            ("PATH", "/usr/bin"),
            ("HOME", "/root"),
            ("ADMIN_PASSWORD", "tajne"),
            ("CF_API_TOKEN", "token"),
            ("RCLONE_CONFIG_BUCKET_TYPE", "s3"),
            ("AWS_SECRET_ACCESS_KEY", "klucz"),
        ]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let names = |extra: &[&str]| -> Vec<String> {
            child_environment(env.clone(), extra)
                .into_iter()
                .map(|(k, _)| k.to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(names(&[]), ["PATH", "HOME"]);
        assert_eq!(
            names(&["RCLONE_CONFIG_*", "CF_API_TOKEN"]),
            ["PATH", "HOME", "CF_API_TOKEN", "RCLONE_CONFIG_BUCKET_TYPE"]
        );
    }

    #[test]
    fn a_bare_name_is_found_on_the_childs_search_path_and_anything_else_is_kept() {
        let dir = std::env::temp_dir().join(format!("subprocess-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("narzedzie");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        let plain = dir.join("nie-program");
        std::fs::write(&plain, "tekst").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(&program, mode).unwrap();
        }
        let path = std::env::join_paths(["relative/bin".into(), dir.clone()]).unwrap();
        let found = |name: &str| found_on(OsStr::new(name), Some(&path));
        assert_eq!(found("narzedzie"), program.as_os_str());
        assert_eq!(found("nie-program"), "nie-program", "not executable");
        assert_eq!(found("brak"), "brak", "found nowhere");
        assert_eq!(found("./narzedzie"), "./narzedzie", "a path stays as given");
        assert_eq!(found_on(OsStr::new("narzedzie"), None), "narzedzie");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_command_names_its_program_by_a_path_so_it_is_spawned_not_forked() {
        let sh = command("sh");
        assert!(
            Path::new(sh.get_program()).is_absolute(),
            "{:?}",
            sh.get_program()
        );
        let out = command("sh").args(["-c", "echo $PATH"]).output().unwrap();
        assert!(out.status.success());
    }

    #[test]
    fn filter_drivers_are_named_with_their_dots() {
        let names = "filter.lfs.clean\nfilter.lfs.smudge\nfilter.a.b.process\nfilter..x\n";
        assert_eq!(
            filter_drivers(names).into_iter().collect::<Vec<_>>(),
            ["a.b", "lfs"]
        );
    }
}
